import type { SqlDialectProfile } from "@openpractice/kysely";
import type { ColumnDefinitionBuilder } from "kysely";

/** PostgreSQL: RETURNING, ON CONFLICT and SKIP LOCKED; `serial` keys. */
export const postgresProfile: SqlDialectProfile = Object.freeze({
  capabilities: Object.freeze({ engine: "postgres", returning: true, skipLocked: true }),
  autoIncrementType: "serial" as const,
  // serial already is the sequence; no modifier.
  autoIncrement: (col: ColumnDefinitionBuilder) => col,
  insertIgnoreStyle: "on-conflict" as const,
  isUniqueViolation: (error: unknown) => (error as { code?: unknown } | null)?.code === "23505",
});
