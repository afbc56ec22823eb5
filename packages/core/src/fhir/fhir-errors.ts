import { errorsOf } from "../kernel/domain-error.js";

/** Errors of the FHIR facade. Codes are public: never renamed or reused. */
export const FHIR_ERROR_CODES = [
  /**
   * A FHIR resource the facade draws from no record of the caller's organisation: an id of another organisation,
   * an Organization other than the caller's own, an id that is not one (details.resource_type, details.id).
   */
  "FHIR_RESOURCE_NOT_FOUND",
] as const;

/** Throws one of the codes above (and only those). */
export const fhirError = errorsOf(FHIR_ERROR_CODES);
