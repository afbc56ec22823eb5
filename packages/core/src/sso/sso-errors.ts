import { errorsOf } from "../kernel/domain-error.js";

/** Errors of app-to-web single sign-on. Codes are public: never renamed or reused. */
export const SSO_ERROR_CODES = [
  /**
   * A launch request the server will not act on (RFC 6749 4.1.2.1): details.error is the OAuth code
   * (invalid_request, invalid_scope) and details.field the parameter at fault.
   */
  "SSO_LAUNCH_REFUSED",
  /**
   * A code exchange refused (RFC 6749 5.2 invalid_grant, or invalid_request when a parameter is missing):
   * details.error is the OAuth code; nothing was issued.
   */
  "INVALID_GRANT",
] as const;

export const ssoError = errorsOf(SSO_ERROR_CODES);
