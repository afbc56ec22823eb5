import type { PatientListCriteria, StorageCapabilities } from "@openpractice/core";
import type { ColumnDefinitionBuilder, Kysely, Migration, Selectable } from "kysely";
import type { Database, PatientsTable } from "./schema.js";

/**
 * An engine's faster path for the patient list with a search, backed by an
 * index the engine's own migration creates. Returning undefined hands the
 * query back to the shared LIKE scan (e.g. for terms too short for the index).
 */
export interface PatientSearchIndex {
  list(db: Kysely<Database>, criteria: PatientListCriteria): Promise<{ rows: Selectable<PatientsTable>[]; total: number } | undefined>;
}

/**
 * What the shared SQL needs to know about an engine. An engine adapter
 * (sqlite, postgres, mysql) supplies one; the shared repositories branch on it,
 * never on engine names.
 */
export interface SqlDialectProfile {
  capabilities: StorageCapabilities;
  /** Column type of auto-increment primary keys ("integer" on SQLite, "serial" on PostgreSQL, "integer" + AUTO_INCREMENT on MySQL). */
  autoIncrementType: "integer" | "serial";
  /** Column type of binary documents up to several MB (PDF summaries): blob, bytea or longblob. */
  binaryType: "blob" | "bytea" | "longblob";
  /** Adds the engine's auto-increment modifier to a primary-key column. */
  autoIncrement(col: ColumnDefinitionBuilder): ColumnDefinitionBuilder;
  /**
   * How "insert unless the unique key exists" is spelled: ON CONFLICT DO NOTHING
   * (SQLite, PostgreSQL) or INSERT IGNORE (MySQL/MariaDB, whose affected-row
   * count stays 0 or 1 even with the FOUND_ROWS client flag mysql2 sets).
   */
  insertIgnoreStyle: "on-conflict" | "insert-ignore";
  /** True when `error` is the driver's unique-constraint violation. */
  isUniqueViolation(error: unknown): boolean;
  /** Storage.isUnavailable for this engine's driver errors. */
  isUnavailable?(error: unknown): boolean;
  /** The engine's own migrations, applied with the shared ones in name order (e.g. a search index). */
  extraMigrations?: Readonly<Record<string, Migration>>;
  patientSearch?: PatientSearchIndex;
}
