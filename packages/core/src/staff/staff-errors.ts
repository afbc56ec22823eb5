import { errorsOf } from "../kernel/domain-error.js";

/** Errors of the staff registry. Codes are public: never renamed or reused. */
export const STAFF_ERROR_CODES = [
  /** The staff member does not exist in the caller's organisation (other organisations' included). */
  "STAFF_NOT_FOUND",
  /** Another staff member of the organisation has this email (details.existing_staff_id). */
  "DUPLICATE_STAFF_EMAIL",
] as const;

/** Throws one of the codes above (and only those). */
export const staffError = errorsOf(STAFF_ERROR_CODES);
