import type { AuditEvent, AuditListFilter, AuditRepository } from "@openpractice/core";
import { sql } from "kysely";
import type { Kysely, Selectable } from "kysely";
import type { AuditEventsTable } from "../tables/audit.js";
import { fromDbTime, toDbTime } from "../db-time.js";
import type { Database } from "../schema.js";
import { executeInsertByShape } from "../statements-by-shape.js";

const toEvent = (r: Selectable<AuditEventsTable>): AuditEvent => ({
  id: Number(r.id),
  organisationId: Number(r.organisation_id),
  occurredAt: fromDbTime(r.occurred_at),
  actorUserId: r.actor_user_id === null ? null : Number(r.actor_user_id),
  actorName: r.actor_name,
  clientId: r.client_id,
  action: r.action,
  resourceType: r.resource_type,
  resourceId: r.resource_id,
  requestId: r.request_id,
  changedFields: JSON.parse(r.changed_fields) as string[],
});

/** The row of an audit entry, its texts cut to their columns' lengths. */
export const auditEventRow = (e: Omit<AuditEvent, "id">) => ({
  organisation_id: e.organisationId,
  occurred_at: toDbTime(e.occurredAt),
  actor_user_id: e.actorUserId,
  actor_name: e.actorName?.slice(0, 200) ?? null,
  client_id: e.clientId,
  action: e.action.slice(0, 100),
  resource_type: e.resourceType.slice(0, 50),
  resource_id: e.resourceId?.slice(0, 64) ?? null,
  request_id: e.requestId?.slice(0, 128) ?? null,
  changed_fields: JSON.stringify(e.changedFields),
});

/** Append and read only: this class has no statement that updates or deletes an entry. */
export class KyselyAuditRepository implements AuditRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async append(events: ReadonlyArray<Omit<AuditEvent, "id">>) {
    if (events.length === 0) return;
    const rows = events.map(auditEventRow);
    await executeInsertByShape(this.db, "insert", "audit_events", rows, () =>
      this.db.insertInto("audit_events").values(rows),
    );
  }

  async list(organisationId: number, f: AuditListFilter & { limit: number; offset: number }) {
    let q = this.db.selectFrom("audit_events").where("organisation_id", "=", organisationId);
    if (f.actorUserId !== undefined) q = q.where("actor_user_id", "=", f.actorUserId);
    if (f.clientId !== undefined) q = q.where("client_id", "=", f.clientId);
    if (f.resourceType !== undefined) q = q.where("resource_type", "=", f.resourceType);
    if (f.resourceId !== undefined) q = q.where("resource_id", "=", f.resourceId);
    // An operation's qualified forms (v1ModifyBlock.this) are found by its name too.
    if (f.action !== undefined) {
      const qualified = `${f.action.replace(/[\\%_]/g, "\\$&")}.%`;
      const action = f.action;
      q = q.where((eb) => eb.or([eb("action", "=", action), sql<boolean>`action like ${qualified} escape ${"\\"}`]));
    }
    // ISO 8601 UTC text of one length sorts as time does.
    if (f.from !== undefined) q = q.where("occurred_at", ">=", toDbTime(f.from));
    if (f.to !== undefined) q = q.where("occurred_at", "<", toDbTime(f.to));
    const [rows, counted] = await Promise.all([
      q.selectAll().orderBy("id", "desc").limit(f.limit).offset(f.offset).execute(),
      q.select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow(),
    ]);
    return { events: rows.map(toEvent), total: Number(counted.n) };
  }
}
