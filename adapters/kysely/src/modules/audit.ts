import { defineKyselyModule } from "../kysely-module.js";
import { auditEventsMigration } from "../migrations/023-audit-events.js";
import { KyselyAuditRepository } from "../repositories/audit-repository.js";

/** The audit trail. */
export const auditKyselyModule = defineKyselyModule({
  key: "audit",
  repositories: (db) => ({ audit: new KyselyAuditRepository(db) }),
  migrations: (profile) => ({ "023-audit-events": auditEventsMigration(profile) }),
  tables: ["audit_events"],
});
