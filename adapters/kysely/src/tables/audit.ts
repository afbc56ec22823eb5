import type { Generated } from "kysely";

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

/** The audit domain's tables by name: its line in `Database` (schema.ts). */
export interface AuditSchema {
  audit_events: AuditEventsTable;
}
