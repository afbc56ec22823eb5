import type { StorageCapabilities } from "@openpractice/core";
import type { ColumnDefinitionBuilder } from "kysely";

/**
 * What the shared SQL needs to know about an engine. An engine adapter
 * (sqlite, postgres, mysql) supplies one; the shared repositories branch on it,
 * never on engine names.
 */
export interface SqlDialectProfile {
  capabilities: StorageCapabilities;
  /** Column type of auto-increment primary keys ("integer" on SQLite, "serial" on PostgreSQL, "integer" + AUTO_INCREMENT on MySQL). */
  autoIncrementType: "integer" | "serial";
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
}
