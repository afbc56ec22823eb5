import { sql, type CreateTableBuilder, type InsertQueryBuilder } from "kysely";

/** A column type as Kysely's schema builder takes it: a type name or a raw SQL expression. */
export type ColumnType = Parameters<CreateTableBuilder<string>["addColumn"]>[1];

/**
 * "Insert unless the unique key already holds the row", without raising (so an
 * enclosing PostgreSQL transaction stays usable). Engines supply one through
 * SqlDialectProfile.ignoreDuplicates; the two spellings below cover SQLite,
 * PostgreSQL, MySQL and MariaDB.
 */
export type IgnoreDuplicates = <DB, TB extends keyof DB, O>(
  insert: InsertQueryBuilder<DB, TB, O>,
  conflictColumns: readonly string[],
) => InsertQueryBuilder<DB, TB, O>;

/** ON CONFLICT (columns) DO NOTHING: SQLite, PostgreSQL. */
export const onConflictDoNothing: IgnoreDuplicates = (insert, conflictColumns) =>
  insert.onConflict((oc) => oc.columns(conflictColumns as never).doNothing());

/**
 * INSERT IGNORE: MySQL and MariaDB (affected rows stay 0 or 1 even with the
 * FOUND_ROWS client flag mysql2 sets). Values are validated before they get
 * here, so IGNORE only ever skips the duplicate.
 */
export const insertIgnore: IgnoreDuplicates = (insert) => insert.ignore();

/**
 * "Insert a counter row, or add `by` to `column` of the row the unique key holds" (the inserted row carries its own
 * starting value): SqlDialectProfile.incrementOnDuplicate.
 */
export type IncrementOnDuplicate = <DB, TB extends keyof DB & string, O>(
  insert: InsertQueryBuilder<DB, TB, O>,
  table: TB,
  conflictColumns: readonly string[],
  column: string,
  by: number,
) => InsertQueryBuilder<DB, TB, O>;

/** ON CONFLICT (columns) DO UPDATE SET column = table.column + by: SQLite, PostgreSQL. */
export const onConflictIncrement: IncrementOnDuplicate = (insert, table, conflictColumns, column, by) =>
  insert.onConflict((oc) =>
    oc
      .columns(conflictColumns as never)
      .doUpdateSet({ [column]: sql`${sql.ref(`${table}.${column}`)} + ${by}` } as never),
  );

/**
 * ON DUPLICATE KEY UPDATE column = LAST_INSERT_ID(column + by): MySQL, MariaDB. Without RETURNING, the new value
 * comes back as the statement's insert id (LAST_INSERT_ID(expr) sets it; the table has no AUTO_INCREMENT column),
 * so the count needs no second statement and no transaction; a fresh row (one affected row) holds its inserted value.
 */
export const onDuplicateKeyIncrement: IncrementOnDuplicate = (insert, _table, _conflictColumns, column, by) =>
  insert.onDuplicateKeyUpdate({ [column]: sql`last_insert_id(${sql.ref(column)} + ${by})` } as never);
