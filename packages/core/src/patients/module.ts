import { defineCoreModule } from "../modules/core-module.js";
import { PATIENT_ERROR_CODES } from "./patient-errors.js";
import { PATIENT_EVENTS } from "./patient-events.js";
import { PatientService } from "./patient-service.js";

/** The patient registry (v1 and the v2 list). */
export const patientsModule = defineCoreModule({
  key: "patients",
  createServices: ({ storage, clock, settings }) => ({
    patients: new PatientService({ storage, clock, searchCountLimit: settings.searchCountLimit }),
  }),
  errorCodes: PATIENT_ERROR_CODES,
  events: PATIENT_EVENTS,
});
