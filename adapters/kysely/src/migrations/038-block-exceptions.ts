import type { Kysely, Migration } from "kysely";

/**
 * Recurring blocks' exceptions and series (issue 49): each block holds its changed occurrences as a JSON array
 * (RECURRENCE-ID by local date; at most one per occurrence, so bounded by the rule's 1,000), the id of the series it
 * was split from, and a version for compare-and-set edits. Existing blocks have none, no series, version 1.
 */
export function blockExceptionsMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable("provider_blocks").addColumn("exceptions", "text").execute();
      await db.schema.alterTable("provider_blocks").addColumn("series_id", "bigint").execute();
      await db.schema
        .alterTable("provider_blocks")
        .addColumn("version", "integer", (c) => c.notNull().defaultTo(1))
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.alterTable("provider_blocks").dropColumn("version").execute();
      await db.schema.alterTable("provider_blocks").dropColumn("series_id").execute();
      await db.schema.alterTable("provider_blocks").dropColumn("exceptions").execute();
    },
  };
}
