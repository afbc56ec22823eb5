/** Errors of the organisation directory (clinics, doctors). Codes are public: never renamed or reused. */
export const ORGANISATION_ERROR_CODES = [
  /** The clinic does not exist in the caller's organisation. */
  "CLINIC_NOT_FOUND",
  /** Another clinic of the organisation has this name (details.existing_clinic_id). */
  "DUPLICATE_CLINIC",
] as const;
