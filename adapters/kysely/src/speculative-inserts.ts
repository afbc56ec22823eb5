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
 * Only the transaction a run of `runningInsertsAhead` opened may insert ahead: the run registers that very
 * transaction object (`allowInsertsAhead`), so work started inside it but running on another transaction or
 * connection (a job, a timer) never does.
 */
export interface TransactionRun {
  readonly mayInsertAhead: boolean;
  insertedAhead: boolean;
}

const runsByTransaction = new WeakMap<object, TransactionRun>();

/**
 * Runs one transaction (`run` opens it and calls `allowInsertsAhead` with it), first letting its inserts go ahead of
 * their answers; when one of them went ahead and the transaction failed on a unique key, once more without.
 */
export async function runningInsertsAhead<T>(
  profile: SqlDialectProfile,
  run: (transactionRun: TransactionRun) => Promise<T>,
): Promise<T> {
  const first: TransactionRun = { mayInsertAhead: profile.reserveIds !== undefined, insertedAhead: false };
  try {
    return await run(first);
  } catch (error) {
    if (!first.insertedAhead) throw error;
    // Reserved ids may no longer be ahead of the sequence (a key taken, the server restored or failed over).
    if (profile.isUniqueViolation(error) || profile.isUnavailable?.(error)) forgetReservedIds();
    // A unique key refused an insert ahead; or a commit found the transaction failed (an error the transaction
    // caught and dropped, which may have been an insert ahead's, answered to the statement it rode with).
    if (!profile.isUniqueViolation(error) && !isRolledBackCommit(error)) throw error;
    return run({ mayInsertAhead: false, insertedAhead: false });
  }
}

/** SQLSTATE 40000 (transaction_rollback): what a driver answers for a COMMIT the server turned into a ROLLBACK. */
const isRolledBackCommit = (error: unknown) => (error as { code?: unknown } | null)?.code === "40000";

/** Called by a run with the transaction it opened. */
export function allowInsertsAhead(trx: Kysely<Database>, transactionRun: TransactionRun): void {
  if (transactionRun.mayInsertAhead) runsByTransaction.set(trx, transactionRun);
}

/**
 * Whether an insert on `db` may be sent ahead of its answer (and if so, it is counted as sent ahead): only on the
 * transaction a run of `runningInsertsAhead` opened, and not in its run again after a refusal.
 */
export function insertAhead(db: Kysely<Database>): boolean {
  const run = runsByTransaction.get(db);
  if (!run) return false;
  run.insertedAhead = true;
  return true;
}

/** Ids reserved per statement: one extra round trip per this many inserts ahead. */
const ID_BLOCK = 64;

/** How long reserved ids are used: past it the rest are dropped and a new block is reserved. */
const ID_BLOCK_MAX_AGE_MS = 60_000;

/** Ids taken from the engine in blocks, handed out one per insert in ascending order. */
class ReservedIds {
  private ids: number[] = [];
  private reservedAt = 0;

  async next(db: Kysely<Database>, reserve: NonNullable<SqlDialectProfile["reserveIds"]>, table: string) {
    if (Date.now() - this.reservedAt > ID_BLOCK_MAX_AGE_MS) this.ids = [];
    const id = this.ids.pop();
    if (id !== undefined) return id;
    // Each transaction that finds none reserves on its own connection: waiting for another transaction's
    // reservation could wait on a lock that transaction holds. Merged with what others reserved meanwhile.
    this.ids = [...this.ids, ...(await reserve(db, table, ID_BLOCK))].sort((a, b) => b - a);
    this.reservedAt = Date.now();
    const own = this.ids.pop();
    if (own === undefined) throw new Error(`no id reserved for ${table}`);
    return own;
  }
}

/** Per Kysely instance (its adapter object, as statements-by-shape.ts keys its cache) and table. */
let reservedIds = new WeakMap<object, Map<string, ReservedIds>>();

function forgetReservedIds(): void {
  reservedIds = new WeakMap();
}

/**
 * A reserved id of `table` for an insert sent ahead. Ids reserved and never used leave gaps (a duplicate uses two
 * ids, a process that stops drops up to a block), as sequences may anyway.
 */
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
