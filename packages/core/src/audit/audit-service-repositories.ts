import type { AuditRepository } from "./audit-repository.js";

/** The repositories the audit trail read and write through: each a port of the feature that owns it. */
export interface AuditServiceRepositories {
  audit: AuditRepository;
}
