import { errorsOf } from "../kernel/domain-error.js";

/** Errors of appointments. Codes are public: never renamed or reused. */
export const APPOINTMENT_ERROR_CODES = [
  /** The appointment does not exist in the caller's organisation. */
  "APPOINTMENT_NOT_FOUND",
  /** The doctor already has an appointment overlapping the requested time; details name it. */
  "SCHEDULE_CONFLICT",
  /** A SOAP note cannot be written on a cancelled appointment (spec 7.1, v1 code 4001). */
  "APPOINTMENT_CANCELLED",
] as const;

/** Throws one of the codes above (and only those). */
export const appointmentError = errorsOf(APPOINTMENT_ERROR_CODES);
