import { defineCoreModule, type ModuleDependencies, owns } from "../kernel/module.js";
import { FHIR_ERROR_CODES } from "./fhir-errors.js";
import type { FhirPatientRepository } from "./fhir-patient-search.js";
import { FhirSearchService, type FhirServiceRepositories } from "./fhir-search-service.js";

/**
 * The FHIR R4 facade's reads (docs/fhir.md): searches FHIR's parameters need over the existing tables. The
 * resources themselves are views of the other domains' records, drawn in packages/http.
 */
export const fhirModule = defineCoreModule({
  key: "fhir",
  repositories: owns<{ fhirPatients: FhirPatientRepository }>(),
  createServices: ({ storage }: ModuleDependencies<FhirServiceRepositories>) => ({
    fhirSearch: new FhirSearchService({ storage }),
  }),
  errorCodes: FHIR_ERROR_CODES,
  events: {},
});
