import { errorsOf } from "../kernel/domain-error.js";

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

/** Throws one of the codes above (and only those). */
export const organisationError = errorsOf(ORGANISATION_ERROR_CODES);

/** The organisation has no such clinic (other organisations' included). */
export const clinicNotFound = (id: unknown) =>
  organisationError("CLINIC_NOT_FOUND", "Clinic not found in this organisation", { clinic_id: id });

/** The organisation has no such provider (other organisations' included). */
export const providerNotFound = (id: unknown) =>
  organisationError("PROVIDER_NOT_FOUND", "Provider not found", { provider_id: id });
