import { defineHttpModule } from "../http-module.js";
import { v1DocumentRoutes } from "./v1-document-routes.js";

/** Patient documents (v1 only: spec 9.4 keeps them off v2). */
export const documentsHttpModule = defineHttpModule({
  key: "documents",
  routes: (deps) => v1DocumentRoutes(deps),
  v1Codes: {
    PATIENT_DOCUMENT_NOT_FOUND: { code: 4069, status: 404 },
    DOCUMENT_TOO_LARGE: { code: 4131, status: 413 },
    DOCUMENT_TYPE_NOT_ALLOWED: { code: 4151, status: 415 },
    DOCUMENT_EMPTY: { code: 4012, status: 400 },
    DOCUMENT_UPLOAD_INVALID: { code: 4013, status: 400 },
    DOCUMENT_NOT_READY: { code: 4074, status: 409 },
    DOCUMENT_QUARANTINED: { code: 4100, status: 410 },
    DOCUMENT_RANGE_NOT_SATISFIABLE: { code: 4160, status: 416 },
    DOCUMENT_STORE_NOT_CONFIGURED: { code: 5032, status: 503 },
  },
  v2Status: {
    PATIENT_DOCUMENT_NOT_FOUND: 404,
    DOCUMENT_TOO_LARGE: 413,
    DOCUMENT_TYPE_NOT_ALLOWED: 415,
    DOCUMENT_EMPTY: 400,
    DOCUMENT_UPLOAD_INVALID: 400,
    DOCUMENT_NOT_READY: 409,
    DOCUMENT_QUARANTINED: 410,
    DOCUMENT_RANGE_NOT_SATISFIABLE: 416,
    DOCUMENT_STORE_NOT_CONFIGURED: 503,
  },
});
