import { defineCoreModule } from "../modules/core-module.js";
import { AuditService } from "./audit-service.js";

/** The audit trail (spec 5.2): who changed or read what, when; append-only. */
export const auditModule = defineCoreModule({
  key: "audit",
  createServices: ({ storage, clock }) => ({ audit: new AuditService({ storage, clock }) }),
  errorCodes: [] as const,
  events: {} as const,
});
