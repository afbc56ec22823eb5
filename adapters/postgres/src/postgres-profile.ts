import {
  NETWORK_UNAVAILABLE_CODES,
  onConflictDoNothing,
  onConflictIncrement,
  type Database,
  type LockedRead,
  type SqlDialectProfile,
} from "@openpractice/kysely";
import { sql, type ColumnDefinitionBuilder, type Kysely } from "kysely";
import { keptPatientCounts } from "@openpractice/kysely";
import { patientCountsMigration } from "./patient-counts.js";
import { keyedPatientSearch, patientSearchKeysMigration } from "./patient-search-keys.js";
import { isStalePreparedStatement } from "./prepared-statements.js";

/** PostgreSQL: RETURNING, ON CONFLICT and SKIP LOCKED; `serial` keys. */
export const postgresProfile: SqlDialectProfile = Object.freeze({
  capabilities: Object.freeze({ engine: "postgres", returning: true, skipLocked: true }),
  autoIncrementColumnType: () => "serial",
  binaryColumnType: () => "bytea",
  // serial already is the sequence; no modifier.
  autoIncrement: (col: ColumnDefinitionBuilder) => col,
  ignoreDuplicates: onConflictDoNothing,
  incrementOnDuplicate: onConflictIncrement,
  isUniqueViolation: (error: unknown) => (error as { code?: unknown } | null)?.code === "23505",
  statementErrorAbortsTransaction: true,
  dataModifyingCte: true,
  // A block of the serial's next values in one statement; nextval is not transactional, so a rolled-back
  // transaction's reservation stays valid.
  reserveIds: async (db: Kysely<Database>, table: string, count: number) =>
    (
      await sql<{ id: string | number }>`select nextval(pg_get_serial_sequence(${table}, 'id')) as id
        from generate_series(1, ${count})`.execute(db)
    ).rows.map((row) => Number(row.id)),
  // READ COMMITTED: every statement sees what was committed before it started; only read-modify-write needs a lock.
  lockedRead: ((query, mode) => (mode === "update" ? query.forUpdate() : query)) as LockedRead,
  // 40P01 deadlock_detected, 40001 serialization_failure; a named statement gone or stale after a migration
  // (prepared-statements.ts), which the connections forget on seeing it, so the transaction's next run parses anew.
  isTransactionConflict: (error: unknown) =>
    ["40P01", "40001"].includes(String((error as { code?: unknown } | null)?.code)) || isStalePreparedStatement(error),
  isUnavailable: (error: unknown) => {
    const e = error as { code?: unknown; message?: unknown } | null;
    const code = typeof e?.code === "string" ? e.code : "";
    const message = typeof e?.message === "string" ? e.message : "";
    // SQLSTATE class 08 (connection), 53300 too many connections, 57P01-57P03 shutdown or starting up,
    // 55000 for a database not accepting connections, and the pool's own connection messages.
    return (
      NETWORK_UNAVAILABLE_CODES.has(code) ||
      code.startsWith("08") ||
      ["53300", "57P01", "57P02", "57P03"].includes(code) ||
      (code === "55000" && message.includes("not currently accepting connections")) ||
      /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(
        message,
      )
    );
  },
  extraMigrations: Object.freeze({
    // A trigram GIN index makes the shared `search_text LIKE '%term%'` indexable, for the page and the count.
    // pg_trgm is a trusted extension (PostgreSQL 13+): the database owner may create it. Migration 033 replaces
    // this index by search keys scoped to the organisation.
    "003-postgres-patients-search-trgm": {
      async up(db: Kysely<any>) {
        await sql`create extension if not exists pg_trgm`.execute(db);
        await sql`create index patients_search_trgm_ix on patients using gin (search_text gin_trgm_ops)`.execute(db);
      },
      async down(db: Kysely<any>) {
        await sql`drop index patients_search_trgm_ix`.execute(db);
      },
    },
    // The planner estimates `LIKE '%term%'` by testing the pattern against the column's histogram, and it only
    // trusts the histogram fully from 1,000 entries (the default target gives 100, blended with a fixed
    // guess). With 100, one ANALYZE sample can put a term matching 1.6% of patients at 0.01% or at 5%, and the
    // search then walks the wrong index: 30 to 47 ms instead of 10 at 1,000,000 patients
    // (docs/performance.md, "Plans that depend on the ANALYZE sample"). ANALYZE then reads 300,000 rows
    // instead of 30,000.
    "013-postgres-patients-search-statistics": {
      async up(db: Kysely<any>) {
        await sql`alter table patients alter column search_text set statistics 1000`.execute(db);
        await sql`analyze patients`.execute(db);
      },
      async down(db: Kysely<any>) {
        await sql`alter table patients alter column search_text set statistics -1`.execute(db);
      },
    },
    // Search keys scoped to the organisation replace the table-wide trigram index (patient-search-keys.ts).
    "033-postgres-patients-search-keys": patientSearchKeysMigration,
    // Exact per-organisation counts kept by triggers for the unsearched list (patient-counts.ts).
    "034-postgres-patient-counts": patientCountsMigration,
  }),
  patientSearch: keyedPatientSearch,
  patientCounts: keptPatientCounts,
});
