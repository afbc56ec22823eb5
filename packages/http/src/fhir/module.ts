import { defineHttpModule } from "../http-module.js";
import { fhirRoutes } from "./fhir-routes.js";

/** The FHIR R4 facade (docs/fhir.md): US Core reads and searches over the same records as v1 and v2. */
export const fhirHttpModule = defineHttpModule({
  key: "fhir",
  routes: fhirRoutes,
  v1Codes: {
    FHIR_RESOURCE_NOT_FOUND: { code: 4073, status: 404 },
    BULK_EXPORT_NOT_FOUND: { code: 4080, status: 404 },
    BULK_EXPORT_LIMIT_REACHED: { code: 4292, status: 429 },
    BULK_EXPORT_FAILED: { code: 5001, status: 500 },
  },
  v2Status: {
    FHIR_RESOURCE_NOT_FOUND: 404,
    BULK_EXPORT_NOT_FOUND: 404,
    BULK_EXPORT_LIMIT_REACHED: 429,
    BULK_EXPORT_FAILED: 500,
  },
});
