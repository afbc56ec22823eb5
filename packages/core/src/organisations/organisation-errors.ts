/** Errors of the organisation directory (clinics, doctors). Codes are public: never renamed or reused. */
export const ORGANISATION_ERROR_CODES = [
  /** The clinic does not exist in the caller's organisation. */
  "CLINIC_NOT_FOUND",
  /** Another clinic of the organisation has this name (details.existing_clinic_id). */
  "DUPLICATE_CLINIC",
  /** The provider does not exist in the caller's organisation (v2 path id; other organisations' included). */
  "PROVIDER_NOT_FOUND",
  /** Another provider of the organisation has this NPI or user id (details.existing_provider_id, details.field). */
  "DUPLICATE_PROVIDER",
] as const;
