import { AsyncLocalStorage } from "node:async_hooks";
import type { Kysely } from "kysely";
import type { Database } from "./schema.js";
import type { SqlDialectProfile } from "./sql-dialect-profile.js";

/**
 * A registration on a server engine waited twice for the database: for the patient insert's answer (a duplicate?
 * which id?) and then for the commit that carries its event and audit entry. Where the profile reserves ids ahead
 * (`reserveIds`, PostgreSQL), the insert instead takes a reserved id, expects no duplicate, and is sent with the
 * commit: one exchange per registration. If the unique key refuses it after all (a duplicate registration), the
 * commit fails, the transaction rolls back, and it runs once more with every insert waiting for its answer, which
 * then finds the existing patient. A duplicate thus costs one more transaction; the answer is the same.
 *
 * Which run of a transaction may speculate is kept per run (AsyncLocalStorage), since the repositories of a run
 * are built by every feature module alike.
 */
interface TransactionRun {
  mayInsertAhead: boolean;
  insertedAhead: boolean;
}

const runs = new AsyncLocalStorage<TransactionRun>();

/**
 * Runs one transaction, first letting its inserts go ahead of their answers; when one of them met a unique key
 * (the engine's unique violation at a later statement or at COMMIT), once more without.
 */
export async function runningInsertsAhead<T>(profile: SqlDialectProfile, run: () => Promise<T>): Promise<T> {
  if (!profile.reserveIds) return run();
  const first: TransactionRun = { mayInsertAhead: true, insertedAhead: false };
  try {
    return await runs.run(first, run);
  } catch (error) {
    if (!first.insertedAhead || !profile.isUniqueViolation(error)) throw error;
    return runs.run({ mayInsertAhead: false, insertedAhead: false }, run);
  }
}

/**
 * Whether an insert on `db` may be sent ahead of its answer (and if so, it is counted as sent ahead): only inside a
 * transaction run by `runningInsertsAhead` that has not been refused once.
 */
export function insertAhead(db: Kysely<Database>): boolean {
  const run = runs.getStore();
  if (!run?.mayInsertAhead || !db.isTransaction) return false;
  run.insertedAhead = true;
  return true;
}

/** Ids taken from the engine in blocks (one statement per block), handed out one per insert. */
class ReservedIds {
  private ids: number[] = [];
  private refilling: Promise<void> | undefined;

  async next(db: Kysely<Database>, reserve: NonNullable<SqlDialectProfile["reserveIds"]>, table: string) {
    for (;;) {
      const id = this.ids.pop();
      if (id !== undefined) return id;
      if (this.refilling) {
        // Another transaction is reserving; if its statement fails, this one reserves on its own connection.
        await this.refilling.catch(() => undefined);
        continue;
      }
      const refilling = reserve(db, table, ID_BLOCK).then((ids) => {
        // Handed out in ascending order (pop takes the last).
        this.ids.push(...ids.sort((a, b) => b - a));
      });
      this.refilling = refilling;
      try {
        await refilling;
      } finally {
        this.refilling = undefined;
      }
    }
  }
}

/** Ids reserved per block: a reservation is one round trip per this many registrations of the process. */
const ID_BLOCK = 64;

/** Per Kysely instance (its adapter object, as statements-by-shape.ts keys its cache) and table. */
const reservedIds = new WeakMap<object, Map<string, ReservedIds>>();

/** A reserved id of `table` for an insert sent ahead. Ids reserved and never used leave gaps, as sequences do. */
export function reservedId(db: Kysely<Database>, profile: SqlDialectProfile, table: string): Promise<number> {
  const reserve = profile.reserveIds;
  if (!reserve) throw new Error("this engine reserves no ids");
  const key = db.getExecutor().adapter;
  let tables = reservedIds.get(key);
  if (!tables) {
    tables = new Map();
    reservedIds.set(key, tables);
  }
  let ids = tables.get(table);
  if (!ids) {
    ids = new ReservedIds();
    tables.set(table, ids);
  }
  return ids.next(db, reserve, table);
}
