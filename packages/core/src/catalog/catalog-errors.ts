import { errorsOf } from "../kernel/domain-error.js";

/** Errors of the organisation's appointment types and cancellation reasons. Codes are public: never renamed or reused. */
export const CATALOG_ERROR_CODES = [
  /** The appointment type (category) does not exist in the caller's organisation. */
  "APPOINTMENT_TYPE_NOT_FOUND",
  /** Another appointment type of the organisation has this name (details.existing_appointment_type_id). */
  "DUPLICATE_APPOINTMENT_TYPE",
  /** The cancellation reason does not exist in the caller's organisation. */
  "CANCELLATION_REASON_NOT_FOUND",
  /** Another cancellation reason of the organisation has this key (details.existing_cancellation_reason_id). */
  "DUPLICATE_CANCELLATION_REASON",
] as const;

/** Throws one of the codes above (and only those). */
export const catalogError = errorsOf(CATALOG_ERROR_CODES);
