import { onConflictDoNothing, onConflictIncrement, type SqlDialectProfile } from "@openpractice/kysely";
import { ftsPatientSearch, patientSearchFtsMigration } from "./patient-search-fts.js";
import type { ColumnDefinitionBuilder } from "kysely";

/** SQLite: RETURNING and ON CONFLICT since 3.35; one writer at a time, so no SKIP LOCKED is needed. */
export const sqliteProfile: SqlDialectProfile = Object.freeze({
  capabilities: Object.freeze({ engine: "sqlite", returning: true, skipLocked: false }),
  singleWriter: true,
  autoIncrementColumnType: () => "integer",
  binaryColumnType: () => "blob",
  autoIncrement: (col: ColumnDefinitionBuilder) => col.autoIncrement(),
  ignoreDuplicates: onConflictDoNothing,
  incrementOnDuplicate: onConflictIncrement,
  isUniqueViolation: (error: unknown) => {
    const code = (error as { code?: unknown } | null)?.code;
    return code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY";
  },
  // Another process wrote since this transaction's first read (WAL), so it cannot take the write lock: SQLite answers
  // at once, without waiting (waiting could deadlock), and rolls the transaction back. Running it again succeeds.
  // Only with several processes on one file: one process's transactions run one at a time.
  isTransactionConflict: (error: unknown) =>
    ["SQLITE_BUSY", "SQLITE_BUSY_SNAPSHOT"].includes(String((error as { code?: unknown } | null)?.code)),
  // Another process held the write lock beyond busy_timeout: safe to retry.
  isUnavailable: (error: unknown) =>
    ["SQLITE_BUSY", "SQLITE_BUSY_SNAPSHOT", "SQLITE_BUSY_TIMEOUT", "SQLITE_LOCKED"].includes(
      String((error as { code?: unknown } | null)?.code),
    ),
  extraMigrations: Object.freeze({ "003-sqlite-patients-search-fts": patientSearchFtsMigration }),
  patientSearch: ftsPatientSearch,
});
