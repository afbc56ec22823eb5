import { defineHttpModule } from "../http-module.js";
import { v1PatientRoutes } from "./v1-patient-routes.js";
import { v2PatientRoutes } from "./v2-patient-routes.js";

/** The patient registry: v1 and the v2 list. */
export const patientsHttpModule = defineHttpModule({
  key: "patients",
  routes: (deps) => [...v1PatientRoutes(deps), ...v2PatientRoutes(deps)],
  v1Codes: {
    PATIENT_NOT_FOUND: { code: 4040, status: 404 },
    DUPLICATE_PATIENT: { code: 4090, status: 409 },
  },
  v2Status: {
    PATIENT_NOT_FOUND: 404,
    DUPLICATE_PATIENT: 409,
  },
});
