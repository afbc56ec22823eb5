import type { ColumnType, IgnoreDuplicates, IncrementOnDuplicate } from "./insert-styles.js";
import type { PatientListCriteria, StorageCapabilities } from "@openpractice/core";
import type { ColumnDefinitionBuilder, Kysely, Migration, Selectable, SelectQueryBuilder } from "kysely";
import type { Database } from "./schema.js";
import type { PatientsTable } from "./tables/patients.js";

/**
 * An engine's faster path for the patient list with a search, backed by an
 * index the engine's own migration creates. Returning undefined hands the
 * query back to the shared LIKE scan (e.g. for terms too short for the index).
 */
export interface PatientSearchIndex {
  list(
    db: Kysely<Database>,
    criteria: PatientListCriteria,
  ): Promise<{ rows: Selectable<PatientsTable>[]; total: number } | undefined>;
}

/**
 * An engine's kept count of an organisation's patients (e.g. by triggers), for
 * lists where counting the rows would read the whole organisation. Returning
 * undefined (a search, date bounds) leaves the count to the list's own query.
 */
export interface PatientCountIndex {
  total(db: Kysely<Database>, criteria: PatientListCriteria): Promise<number | undefined>;
}

/** SqlDialectProfile.lockedRead: the same query, reading the latest committed rows ("latest") or also locking them ("update"). */
export type LockedRead = <DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  mode: "latest" | "update",
) => SelectQueryBuilder<DB, TB, O>;

/**
 * What the shared SQL needs to know about an engine. An engine adapter
 * (sqlite, postgres, mysql) supplies one; the shared repositories branch on it,
 * never on engine names.
 */
export interface SqlDialectProfile {
  capabilities: StorageCapabilities;
  /** Column type of auto-increment primary keys ("integer" on SQLite, "serial" on PostgreSQL, "integer" + AUTO_INCREMENT on MySQL). */
  autoIncrementColumnType(): ColumnType;
  /** Column type of binary documents up to several MB (PDF summaries): blob, bytea or longblob. */
  binaryColumnType(): ColumnType;
  /** Adds the engine's auto-increment modifier to a primary-key column. */
  autoIncrement(col: ColumnDefinitionBuilder): ColumnDefinitionBuilder;
  /**
   * Spells "insert unless the unique key exists" on an INSERT: ON CONFLICT DO
   * NOTHING (onConflictDoNothing: SQLite, PostgreSQL) or INSERT IGNORE
   * (insertIgnore: MySQL, MariaDB). With `capabilities.returning` the shared
   * SQL adds RETURNING to it.
   */
  ignoreDuplicates: IgnoreDuplicates;
  /**
   * INSERT … RETURNING where `capabilities.returning` is false because other statements lack it: MariaDB 10.5+
   * returns the rows an INSERT (also INSERT IGNORE) wrote, never a row it skipped, but has no UPDATE … RETURNING.
   * The insert-if-absent of a patient then needs no read-back when it inserted.
   */
  insertReturning?: boolean;
  /** Spells "insert, or add to the counter the unique key holds" (onConflictIncrement, onDuplicateKeyIncrement). */
  incrementOnDuplicate: IncrementOnDuplicate;
  /** True when `error` is the driver's unique-constraint violation. */
  isUniqueViolation(error: unknown): boolean;
  /**
   * Whether DROP INDEX names the index's table (MySQL, MariaDB: `DROP INDEX i ON t`); SQLite and PostgreSQL
   * refuse the ON clause. Migrations' `down` steps drop indexes with `dropIndexOf`.
   */
  dropIndexNamesTable?: boolean;
  /**
   * True when the database takes one writer at a time and the others wait by polling (SQLite's busy_timeout, whose
   * sleeps grow to 100 ms): bulk work that commits in batches pauses between them for as long as a batch took, or
   * a polling writer can miss every gap and wait for the whole job.
   */
  singleWriter?: boolean;
  /**
   * True when a failed statement leaves the enclosing transaction unusable
   * (PostgreSQL: "current transaction is aborted"). The shared SQL then runs
   * statements that may fail on purpose (a unique key deciding a race) inside
   * a savepoint, so the transaction goes on after the refusal.
   */
  statementErrorAbortsTransaction?: boolean;
  /**
   * A read inside a transaction that must see rows other transactions
   * committed after this one's first read, or that must lock what it read:
   * - "latest": the latest committed rows, e.g. the winner of an insert-if-absent
   *   this transaction lost (MySQL/MariaDB REPEATABLE READ reads a snapshot
   *   taken at the first read, so it needs LOCK IN SHARE MODE; PostgreSQL's READ
   *   COMMITTED sees them with a plain SELECT);
   * - "update": the latest committed rows, locked against concurrent writers
   *   until the transaction ends (SELECT ... FOR UPDATE), for read-modify-write.
   * Absent (SQLite): a plain SELECT, since one writer at a time holds the whole database.
   */
  lockedRead?: LockedRead;
  /**
   * True when the engine ended the transaction to break a deadlock or a
   * serialization conflict between concurrent transactions: running it again
   * succeeds (Storage.transaction does, a few times).
   */
  isTransactionConflict?(error: unknown): boolean;
  /**
   * Reserves `count` ids of `table`'s serial key for inserts that name their id (speculative-inserts.ts): a
   * registration's insert is then sent with its commit instead of waiting for its answer. Engines whose driver does
   * not send a held statement with the next (SENT_WITH_NEXT_STATEMENT) leave it out.
   */
  reserveIds?(db: Kysely<Database>, table: string, count: number): Promise<number[]>;
  /**
   * True when INSERTs may run inside WITH (PostgreSQL's data-modifying CTEs): a transaction's outbox events and
   * audit entries are then written with one statement at its end (deferred-appends.ts) instead of one each.
   */
  dataModifyingCte?: boolean;
  /**
   * True when a transaction's outbox events and audit entries should be kept to its end even without
   * dataModifyingCte: they are then written as one statement each, marked to ride with COMMIT for a driver that
   * sends held statements together (MySQL's pipelined transactions). Nothing else changes for a driver that does not.
   */
  deferredAppends?: boolean;
  /** Storage.isUnavailable for this engine's driver errors. */
  isUnavailable?(error: unknown): boolean;
  /** The engine's own migrations, applied with the shared ones in name order (e.g. a search index). */
  extraMigrations?: Readonly<Record<string, Migration>>;
  patientSearch?: PatientSearchIndex;
  patientCounts?: PatientCountIndex;
}

/** DROP INDEX in the engine's spelling (see `dropIndexNamesTable`). */
export function dropIndexOf(db: Kysely<any>, profile: SqlDialectProfile, index: string, table: string) {
  const drop = db.schema.dropIndex(index);
  return profile.dropIndexNamesTable ? drop.on(table) : drop;
}
