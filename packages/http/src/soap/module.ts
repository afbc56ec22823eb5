import { defineHttpModule } from "../http-module.js";
import { v1SoapRoutes } from "./v1-soap-routes.js";
import { v1SoapWorkflowRoutes } from "./v1-soap-workflow-routes.js";

/** SOAP notes, forms, treatment sheets, signing and completion (v1). */
export const soapHttpModule = defineHttpModule({
  key: "soap",
  routes: (deps) => [...v1SoapRoutes(deps), ...v1SoapWorkflowRoutes(deps)],
  v1Codes: {
    SOAP_NOTE_NOT_FOUND: { code: 4048, status: 404 },
    FORM_SUBMISSION_NOT_FOUND: { code: 4051, status: 404 },
    TREATMENT_SHEET_NOT_FOUND: { code: 4052, status: 404 },
    TREATMENT_SHEET_EXISTS: { code: 4098, status: 409 },
    SIGNER_NOT_ALLOWED: { code: 4031, status: 403 },
    NOTE_INCOMPLETE: { code: 4099, status: 409 },
    DOCUMENT_NOT_FOUND: { code: 4053, status: 404 },
    PLAN_OF_CARE_NOT_FOUND: { code: 4054, status: 404 },
    CLAIM_NOT_FOUND: { code: 4055, status: 404 },
    PROGRESS_REPORT_DUE: { code: 4101, status: 409 },
  },
  v2Status: {
    SOAP_NOTE_NOT_FOUND: 404,
    FORM_SUBMISSION_NOT_FOUND: 404,
    TREATMENT_SHEET_NOT_FOUND: 404,
    TREATMENT_SHEET_EXISTS: 409,
    SIGNER_NOT_ALLOWED: 403,
    NOTE_INCOMPLETE: 409,
    DOCUMENT_NOT_FOUND: 404,
    PLAN_OF_CARE_NOT_FOUND: 404,
    CLAIM_NOT_FOUND: 404,
    PROGRESS_REPORT_DUE: 409,
  },
});
