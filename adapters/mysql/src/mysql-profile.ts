import {
  insertIgnore,
  keptPatientCounts,
  NETWORK_UNAVAILABLE_CODES,
  onDuplicateKeyIncrement,
  type LockedRead,
  type SqlDialectProfile,
} from "@openpractice/kysely";
import { sql, type ColumnDefinitionBuilder } from "kysely";
import { mysqlPatientCountsMigration } from "./patient-counts.js";
import { trigramPatientSearch } from "./patient-search-from-trigrams.js";
import { patientSearchTrigramsMigration } from "./patient-search-trigrams.js";

/**
 * MySQL 8 and MariaDB 10.6+: SKIP LOCKED, no RETURNING (MariaDB has it for
 * INSERT, MySQL does not), AUTO_INCREMENT keys, INSERT IGNORE for insert-if-absent.
 */
export const mysqlProfile: SqlDialectProfile = Object.freeze({
  capabilities: Object.freeze({ engine: "mysql", returning: false, skipLocked: true }),
  autoIncrementColumnType: () => "integer",
  binaryColumnType: () => sql`longblob`,
  autoIncrement: (col: ColumnDefinitionBuilder) => col.autoIncrement(),
  ignoreDuplicates: insertIgnore,
  incrementOnDuplicate: onDuplicateKeyIncrement,
  dropIndexNamesTable: true,
  // The outbox event and audit entry ride with COMMIT (pipelined-transactions.ts).
  deferredAppends: true,
  isUniqueViolation: (error: unknown) => {
    const e = error as { code?: unknown; errno?: unknown } | null;
    return e?.code === "ER_DUP_ENTRY" || e?.errno === 1062;
  },
  // REPEATABLE READ: a plain SELECT reads the transaction's snapshot; a locking read reads the latest committed row.
  lockedRead: ((query, mode) =>
    mode === "update" ? query.forUpdate() : query.modifyEnd(sql`lock in share mode`)) as LockedRead,
  // ER_LOCK_DEADLOCK: InnoDB rolled the transaction back (gap locks of concurrent insert-if-absent, shared locks upgraded by an update).
  isTransactionConflict: (error: unknown) => {
    const e = error as { code?: unknown; errno?: unknown } | null;
    return e?.code === "ER_LOCK_DEADLOCK" || Number(e?.errno) === 1213;
  },
  isUnavailable: (error: unknown) => {
    const e = error as { code?: unknown; errno?: unknown; fatal?: unknown } | null;
    const code = typeof e?.code === "string" ? e.code : "";
    // Connection lost or refused, too many connections (1040), server shutting down (1053), lock wait timeout (1205).
    return (
      NETWORK_UNAVAILABLE_CODES.has(code) ||
      ["PROTOCOL_CONNECTION_LOST", "ER_CON_COUNT_ERROR", "ER_SERVER_SHUTDOWN", "ER_LOCK_WAIT_TIMEOUT"].includes(code) ||
      [1040, 1053, 1205].includes(Number(e?.errno))
    );
  },
  // A trigram side table kept by triggers (patient-search-trigrams.ts). MySQL 8's ngram FULLTEXT parser could back
  // another PatientSearchIndex chosen here by server version; MariaDB has no ngram parser.
  extraMigrations: Object.freeze({
    "032-mysql-patients-search-trigrams": patientSearchTrigramsMigration,
    "035-mysql-patient-counts": mysqlPatientCountsMigration,
  }),
  patientSearch: trigramPatientSearch,
  patientCounts: keptPatientCounts,
});

/** MariaDB: the MySQL profile, with INSERT … RETURNING (a registration reads its row back only when it skipped). */
export const mariaDbProfile: SqlDialectProfile = Object.freeze({ ...mysqlProfile, insertReturning: true });
