import { errorsOf } from "../kernel/domain-error.js";

/** Errors of the patient registry. Codes are public: never renamed or reused. */
export const PATIENT_ERROR_CODES = [
  /** The patient does not exist in the caller's organisation (other organisations' patients included). */
  "PATIENT_NOT_FOUND",
  /** A patient with the same name and date of birth already exists in the organisation. */
  "DUPLICATE_PATIENT",
] as const;

/** Throws one of the codes above (and only those). */
export const patientError = errorsOf(PATIENT_ERROR_CODES);
