import { errorsOf } from "../kernel/domain-error.js";

/** Errors of eligibility checks. Codes are public: never renamed or reused. */
export const ELIGIBILITY_ERROR_CODES = [
  /** No real-time gateway, or no clearinghouse for the organisation: record results by hand on v1. */
  "ELIGIBILITY_NOT_CONFIGURED",
  /** The payer answered with AAA rejections (details.rejections: code, reason, follow_up; details.check_id). */
  "ELIGIBILITY_REJECTED",
  /** No answer within the timeout (CAQH CORE real-time: 20 s by default); details.check_id. */
  "ELIGIBILITY_TIMEOUT",
  /** The clearinghouse could not be reached or answered with an HTTP error; details.check_id. */
  "ELIGIBILITY_UNAVAILABLE",
  /** The answer was not a 271 for this inquiry; details.check_id. */
  "ELIGIBILITY_INVALID_RESPONSE",
  /** DELETE of the organisation's own clearinghouse when it set none. */
  "CLEARINGHOUSE_NOT_SET",
] as const;

/** Throws one of the codes above (and only those). */
export const eligibilityError = errorsOf(ELIGIBILITY_ERROR_CODES);
