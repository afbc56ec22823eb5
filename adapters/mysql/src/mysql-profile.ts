import type { SqlDialectProfile } from "@openpractice/kysely";
import type { ColumnDefinitionBuilder } from "kysely";

/**
 * MySQL 8 and MariaDB 10.6+: SKIP LOCKED, no RETURNING (MariaDB has it for
 * INSERT, MySQL does not), AUTO_INCREMENT keys, INSERT IGNORE for insert-if-absent.
 */
export const mysqlProfile: SqlDialectProfile = Object.freeze({
  capabilities: Object.freeze({ engine: "mysql", returning: false, skipLocked: true }),
  autoIncrementType: "integer" as const,
  autoIncrement: (col: ColumnDefinitionBuilder) => col.autoIncrement(),
  insertIgnoreStyle: "insert-ignore" as const,
  isUniqueViolation: (error: unknown) => {
    const e = error as { code?: unknown; errno?: unknown } | null;
    return e?.code === "ER_DUP_ENTRY" || e?.errno === 1062;
  },
});
