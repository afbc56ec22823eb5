import { errorsOf } from "../kernel/domain-error.js";

/** Errors of cases, referring physicians and authorizations. Codes are public: never renamed or reused. */
export const CASE_ERROR_CODES = [
  /** The case does not exist in the caller's organisation. */
  "CASE_NOT_FOUND",
  /** The referring physician does not exist in the caller's organisation. */
  "REFERRING_PHYSICIAN_NOT_FOUND",
  /** The authorization does not exist in the caller's organisation. */
  "AUTHORIZATION_NOT_FOUND",
  /** The organisation already has a referring physician with this NPI; details name it. */
  "DUPLICATE_REFERRING_PHYSICIAN",
  /** A tracked case or its authorization has no visits left; details say how many of how many are used. */
  "VISIT_LIMIT_REACHED",
  /** A tracked case has no active authorization whose window contains the visit date. */
  "NO_VALID_AUTHORIZATION",
] as const;

/** Throws one of the codes above (and only those). */
export const caseError = errorsOf(CASE_ERROR_CODES);
