import { defineHttpModule } from "../http-module.js";
import { fhirRoutes } from "./fhir-routes.js";

/** The FHIR R4 facade (docs/fhir.md): US Core reads and searches over the same records as v1 and v2. */
export const fhirHttpModule = defineHttpModule({
  key: "fhir",
  routes: fhirRoutes,
  v1Codes: { FHIR_RESOURCE_NOT_FOUND: { code: 4073, status: 404 } },
  v2Status: { FHIR_RESOURCE_NOT_FOUND: 404 },
});
