import { sql, type Kysely, type SelectQueryBuilder } from "kysely";
import type { SqlDialectProfile } from "./sql-dialect-profile.js";

// Helpers for rows that concurrent transactions compete for: how the loser of a race reads the winner, and how
// a write that a unique key may refuse keeps the transaction around it usable.

/**
 * The query reading the latest committed rows, also inside a transaction whose
 * snapshot predates them: how the loser of an insert-if-absent reads the winner.
 */
export function readLatest<DB, TB extends keyof DB, O>(
  profile: SqlDialectProfile,
  query: SelectQueryBuilder<DB, TB, O>,
): SelectQueryBuilder<DB, TB, O> {
  return profile.lockedRead ? profile.lockedRead(query, "latest") : query;
}

/** The query reading the latest committed rows and locking them until the transaction ends, for read-modify-write. */
export function readForUpdate<DB, TB extends keyof DB, O>(
  profile: SqlDialectProfile,
  query: SelectQueryBuilder<DB, TB, O>,
): SelectQueryBuilder<DB, TB, O> {
  return profile.lockedRead ? profile.lockedRead(query, "update") : query;
}

/**
 * Runs a statement that may fail on purpose (a unique key refusing a racing
 * write) so that its failure leaves the enclosing transaction usable: inside
 * a savepoint on engines where a failed statement aborts the transaction
 * (PostgreSQL), as is elsewhere. Outside a transaction nothing is needed.
 */
export async function refusableStatement<T>(
  db: Kysely<any>,
  profile: SqlDialectProfile,
  statement: () => Promise<T>,
): Promise<T> {
  if (!profile.statementErrorAbortsTransaction || !db.isTransaction) return statement();
  // One name serves nested uses too: ROLLBACK TO and RELEASE act on the latest savepoint of that name.
  const name = sql.id("op_refusable");
  await sql`savepoint ${name}`.execute(db);
  try {
    const result = await statement();
    await sql`release savepoint ${name}`.execute(db);
    return result;
  } catch (error) {
    await sql`rollback to savepoint ${name}`.execute(db);
    await sql`release savepoint ${name}`.execute(db);
    throw error;
  }
}
