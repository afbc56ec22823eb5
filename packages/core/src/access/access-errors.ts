import { errorsOf } from "../kernel/domain-error.js";

/** Errors of organisation administration and API access. Codes are public: never renamed or reused. */
export const ACCESS_ERROR_CODES = [
  /** The organisation does not exist (platform routes), or has no record yet (GET /v2/organisation). */
  "ORGANISATION_NOT_FOUND",
  /** The organisation was deactivated by the platform operator: its tokens are refused. */
  "ORGANISATION_DEACTIVATED",
  /** The API client does not exist in the caller's organisation (other organisations' included). */
  "API_CLIENT_NOT_FOUND",
  /** Another API client of the organisation has this name (details.existing_api_client_id). */
  "DUPLICATE_API_CLIENT",
  /** Client authentication failed at the token endpoint: unknown client, wrong secret, or revoked (RFC 6749 invalid_client). */
  "INVALID_CLIENT",
  /** The requested scope is not one the client may hold (RFC 6749 invalid_scope; details.refused_scopes). */
  "INVALID_SCOPE",
  /** Too many failed client authentications from this client or address in the current minute. */
  "CLIENT_AUTH_THROTTLED",
] as const;

/** Throws one of the codes above (and only those). */
export const accessError = errorsOf(ACCESS_ERROR_CODES);
