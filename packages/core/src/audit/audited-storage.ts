import type { Clock } from "../kernel/clock.js";
import type { OutboxEvent } from "../kernel/events.js";
import type { OutboxRepository } from "../kernel/outbox-repository.js";
import type { Storage } from "../kernel/storage.js";
import type { AuditRepository } from "./audit-repository.js";
import { withTransaction } from "../kernel/storage-with-transaction.js";
import { currentAuditScope, runInCapturedScope, type AuditScope } from "./audit-scope.js";

/** The first id an event names besides the organisation (its record: patient_id of patient.created, …). */
function recordIdOf(event: OutboxEvent): string | null {
  for (const [field, value] of Object.entries((event.data ?? {}) as Record<string, unknown>))
    if (
      field !== "organisation_id" &&
      field.endsWith("_id") &&
      (typeof value === "number" || typeof value === "string")
    )
      return String(value);
  return null;
}

/** The id of the record a transaction returned (a created member, clinic, payer…), or null. */
function idOf(result: unknown): string | null {
  const id = (result as { id?: unknown } | null | undefined)?.id;
  return typeof id === "number" || typeof id === "string" ? String(id) : null;
}

/**
 * The storage every service of a Practice uses: transactions run unchanged, except that the first transaction of
 * an audited operation (runInAuditScope) also appends the operation's audit entry before it commits, so the write
 * and its audit entry are kept or lost together. The entry names the record the operation's path named, else the
 * one the service noted, else the first record an event of the transaction names, else the id of what the
 * transaction returned.
 *
 * The entry is appended only after `fn` returned, in its transaction: a service refuses a write (a record not found,
 * a conflict) by throwing inside the transaction, which rolls the entry back with it. A transaction that commits
 * and is followed by a refusal would leave an entry for a write that never happened (test/http/audit-refused-writes
 * sends every audited route an unknown id to hold every service to it).
 */
export function auditedStorage<R extends { audit: AuditRepository; outbox: OutboxRepository }>(
  storage: Storage<R>,
  clock: Clock,
): Storage<R> {
  return withTransaction(storage, <T>(fn: (tx: R) => Promise<T>): Promise<T> => {
    const scope = currentAuditScope();
    if (!scope || scope.recorded) return storage.transaction((tx) => runInCapturedScope(scope, () => fn(tx)));
    return storage
      .transaction(async (tx) => {
        let eventRecord: string | null = null;
        const outbox = tx.outbox;
        const watched: R = {
          ...tx,
          outbox: Object.assign(Object.create(outbox) as typeof outbox, {
            append: (...args: Parameters<typeof outbox.append>) => {
              eventRecord ??= recordIdOf(args[0]);
              return outbox.append(...args);
            },
          }),
        };
        const result = await runInCapturedScope(scope, () => fn(watched));
        await tx.audit.append([auditRow(scope, clock.now(), eventRecord ?? idOf(result))]);
        return result;
      })
      .then((result) => {
        scope.recorded = true;
        return result;
      });
  });
}

export const auditRow = (scope: AuditScope, now: Date, fallbackResourceId: string | null = null) => ({
  ...scope.entry,
  organisationId: scope.organisationId,
  occurredAt: now,
  resourceId: scope.entry.resourceId ?? scope.resourceId ?? fallbackResourceId,
});
