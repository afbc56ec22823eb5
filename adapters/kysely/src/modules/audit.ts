import type { Generated } from "kysely";
import { defineKyselyModule } from "../kysely-module.js";
import { auditEventsMigration } from "../migrations/023-audit-events.js";
import { KyselyAuditRepository } from "../repositories/audit-repository.js";

export interface AuditEventsTable {
  id: Generated<number>;
  organisation_id: number;
  occurred_at: string;
  actor_user_id: number | null;
  actor_name: string | null;
  client_id: string | null;
  action: string;
  resource_type: string;
  resource_id: string | null;
  request_id: string | null;
  /** JSON array of field names. */
  changed_fields: string;
}

/** The audit trail. */
export const auditKyselyModule = defineKyselyModule({
  key: "audit",
  repositories: (db) => ({ audit: new KyselyAuditRepository(db) }),
  migrations: (profile) => ({ "023-audit-events": auditEventsMigration(profile) }),
  tables: ["audit_events"],
});
