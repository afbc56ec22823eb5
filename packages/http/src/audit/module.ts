import { defineHttpModule } from "../http-module.js";
import { v2AuditRoutes } from "./v2-audit-routes.js";

/** The audit trail's read route; every write route records into it (handler.ts). */
export const auditHttpModule = defineHttpModule({ key: "audit", routes: v2AuditRoutes, v1Codes: {}, v2Status: {} });
