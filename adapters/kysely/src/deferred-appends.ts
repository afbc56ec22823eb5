import type { AuditEvent, DomainEvent, Repositories } from "@openpractice/core";
import type { Kysely } from "kysely";
import { auditEventRow } from "./repositories/audit-repository.js";
import { outboxRow } from "./repositories/outbox-repository.js";
import type { Database } from "./schema.js";
import { executeWithNext } from "./sent-with-next.js";
import { rowsShape, type Shaped } from "./statements-by-shape.js";

/** The shape of several inserts in one statement, their values in order; undefined where one has no shape. */
function shapeOf(...inserts: Array<Shaped | undefined>): Shaped | undefined {
  if (inserts.some((insert) => insert === undefined)) return undefined;
  const shaped = inserts as Shaped[];
  return { shape: `appends: ${shaped.map((s) => s.shape).join(" + ")}`, values: shaped.flatMap((s) => s.values) };
}

/**
 * A transaction's outbox events and audit entries, kept until its work is done and then written by one statement
 * before it commits: on a server engine every statement is a network round trip, and a write usually appends one
 * event and one audit entry (two round trips of the five or six a create makes). Where the engine runs INSERTs
 * inside WITH (`SqlDialectProfile.dataModifyingCte`, PostgreSQL) both tables take one statement; elsewhere
 * (`deferredAppends`, MySQL) one each, both marked to ride with COMMIT. Nothing in a transaction reads back the
 * events or entries it appended, so writing them at its end changes no answer; they still commit with the change
 * or not at all.
 */
export function deferringAppends(tx: Repositories, trx: Kysely<Database>, dataModifyingCte = true) {
  const events: DomainEvent[] = [];
  const entries: Array<Omit<AuditEvent, "id">> = [];
  const repositories: Repositories = {
    ...tx,
    outbox: Object.assign(Object.create(tx.outbox) as typeof tx.outbox, {
      append: async (event: DomainEvent) => {
        events.push(event);
      },
    }),
    audit: Object.assign(Object.create(tx.audit) as typeof tx.audit, {
      append: async (rows: ReadonlyArray<Omit<AuditEvent, "id">>) => {
        entries.push(...rows);
      },
    }),
  };
  const flush = async () => {
    const outbox = events.splice(0).map(outboxRow);
    const audit = entries.splice(0).map(auditEventRow);
    const outboxShape = rowsShape("outbox", outbox);
    const auditShape = rowsShape("audit_events", audit);
    if (!dataModifyingCte) {
      // One statement per table, each sent with what follows (on MySQL: with COMMIT, as one text).
      if (outbox.length > 0)
        await executeWithNext(trx, shapeOf(outboxShape), () => trx.insertInto("outbox").values(outbox));
      if (audit.length > 0)
        await executeWithNext(trx, shapeOf(auditShape), () => trx.insertInto("audit_events").values(audit));
    } else if (outbox.length > 0 && audit.length > 0)
      await executeWithNext(trx, shapeOf(outboxShape, auditShape), () =>
        trx
          .with("appended_events", (db) => db.insertInto("outbox").values(outbox))
          .insertInto("audit_events")
          .values(audit),
      );
    else if (outbox.length > 0)
      await executeWithNext(trx, shapeOf(outboxShape), () => trx.insertInto("outbox").values(outbox));
    else if (audit.length > 0)
      await executeWithNext(trx, shapeOf(auditShape), () => trx.insertInto("audit_events").values(audit));
  };
  return { repositories, flush };
}
