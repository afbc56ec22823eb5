import { NETWORK_UNAVAILABLE_CODES, type SqlDialectProfile } from "@openpractice/kysely";
import { sql, type ColumnDefinitionBuilder, type Kysely } from "kysely";

/** PostgreSQL: RETURNING, ON CONFLICT and SKIP LOCKED; `serial` keys. */
export const postgresProfile: SqlDialectProfile = Object.freeze({
  capabilities: Object.freeze({ engine: "postgres", returning: true, skipLocked: true }),
  autoIncrementType: "serial" as const,
  binaryType: "bytea" as const,
  // serial already is the sequence; no modifier.
  autoIncrement: (col: ColumnDefinitionBuilder) => col,
  insertIgnoreStyle: "on-conflict" as const,
  isUniqueViolation: (error: unknown) => (error as { code?: unknown } | null)?.code === "23505",
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
      /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(message)
    );
  },
  extraMigrations: Object.freeze({
    // A trigram GIN index makes the shared `search_text LIKE '%term%'` indexable, for the page and the count.
    // pg_trgm is a trusted extension (PostgreSQL 13+): the database owner may create it.
    "003-postgres-patients-search-trgm": {
      async up(db: Kysely<any>) {
        await sql`create extension if not exists pg_trgm`.execute(db);
        await sql`create index patients_search_trgm_ix on patients using gin (search_text gin_trgm_ops)`.execute(db);
      },
      async down(db: Kysely<any>) {
        await sql`drop index patients_search_trgm_ix`.execute(db);
      },
    },
  }),
});
