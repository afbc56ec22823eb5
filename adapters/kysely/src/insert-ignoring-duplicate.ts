import type { Insertable, Kysely } from "kysely";
import type { Database } from "./schema.js";
import type { SqlDialectProfile } from "./sql-dialect-profile.js";

/**
 * INSERT that does nothing when a unique key already holds the row, without
 * raising (so an enclosing PostgreSQL transaction is not aborted). Resolves to
 * true when a row was inserted.
 */
export async function insertIgnoringDuplicate<T extends keyof Database & string>(
  db: Kysely<Database>,
  profile: SqlDialectProfile,
  table: T,
  values: Insertable<Database[T]>,
  conflictColumns: string[],
): Promise<boolean> {
  const result = await profile
    .ignoreDuplicates(db.insertInto(table).values(values as never), conflictColumns)
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

/**
 * insertIgnoringDuplicate for tables with a generated id: the new row's id, or
 * undefined when a unique key already held the row (read the winner with
 * readLatest). Never raises for the duplicate, so a transaction stays usable.
 */
export async function insertIgnoringDuplicateReturningId<T extends keyof Database & string>(
  db: Kysely<Database>,
  profile: SqlDialectProfile,
  table: T,
  values: Insertable<Database[T]>,
  conflictColumns: string[],
): Promise<number | undefined> {
  const insert = profile.ignoreDuplicates(db.insertInto(table).values(values as never), conflictColumns);
  if (profile.capabilities.returning) {
    const row = await insert.returning("id" as never).executeTakeFirst();
    return row === undefined ? undefined : Number((row as unknown as { id: number }).id);
  }
  const result = await insert.executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1 ? Number(result.insertId) : undefined;
}
