import { defineCoreModule, type ModuleDependencies, owns } from "../kernel/module.js";
import type { AuditRepository } from "./audit-repository.js";
import type { AuditServiceRepositories } from "./audit-service-repositories.js";
import { AuditService } from "./audit-service.js";

/** The audit trail (spec 5.2): who changed or read what, when; append-only. */
export const auditModule = defineCoreModule({
  key: "audit",
  repositories: owns<{ audit: AuditRepository }>(),
  createServices: ({ storage, clock }: ModuleDependencies<AuditServiceRepositories>) => ({
    audit: new AuditService({ storage, clock }),
  }),
  errorCodes: [] as const,
  events: {} as const,
});
