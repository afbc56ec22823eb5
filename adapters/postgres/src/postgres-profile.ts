import type { SqlDialectProfile } from "@openpractice/kysely";
import { sql, type ColumnDefinitionBuilder, type Kysely } from "kysely";

/** PostgreSQL: RETURNING, ON CONFLICT and SKIP LOCKED; `serial` keys. */
export const postgresProfile: SqlDialectProfile = Object.freeze({
  capabilities: Object.freeze({ engine: "postgres", returning: true, skipLocked: true }),
  autoIncrementType: "serial" as const,
  // serial already is the sequence; no modifier.
  autoIncrement: (col: ColumnDefinitionBuilder) => col,
  insertIgnoreStyle: "on-conflict" as const,
  isUniqueViolation: (error: unknown) => (error as { code?: unknown } | null)?.code === "23505",
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
