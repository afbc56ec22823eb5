import type { DomainEvent, EventType, OutboxEntry, OutboxRepository } from "@openpractice/core";
import type { Kysely } from "kysely";
import { fromDbTime, toDbTime } from "../db-time.js";
import type { Database } from "../schema.js";
import { executeInsertByShape } from "../statements-by-shape.js";

/** The outbox row of an event, not yet dispatched. */
export const outboxRow = (event: DomainEvent) => ({
  organisation_id: event.organisationId,
  event_type: event.eventType,
  data: JSON.stringify(event.data),
  occurred_at: toDbTime(event.occurredAt),
  dispatched_at: null,
});

export class KyselyOutboxRepository implements OutboxRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async append(event: DomainEvent) {
    const row = outboxRow(event);
    await executeInsertByShape(this.db, "insert", "outbox", [row], () => this.db.insertInto("outbox").values(row));
  }

  async markDispatched(ids: number[], at: Date) {
    if (ids.length === 0) return;
    await this.db
      .updateTable("outbox")
      .set({ dispatched_at: toDbTime(at) })
      .where("id", "in", ids)
      .execute();
  }

  async listPending(limit: number): Promise<OutboxEntry[]> {
    const rows = await this.db
      .selectFrom("outbox")
      .selectAll()
      .where("dispatched_at", "is", null)
      .orderBy("id")
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      id: Number(r.id),
      organisationId: Number(r.organisation_id),
      eventType: r.event_type as EventType,
      data: JSON.parse(r.data),
      occurredAt: fromDbTime(r.occurred_at),
      dispatchedAt: r.dispatched_at ? fromDbTime(r.dispatched_at) : null,
    }));
  }
}
