import type { Kysely, Migration } from "kysely";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";

const TIME = "varchar(30)";

/**
 * Providers' blocks: a span of instants (UTC text), and for a recurring block its zone and RRULE; last_ends_at
 * (the last occurrence's end) lets a range query find recurring blocks by their whole span.
 */
export function providerBlocksMigration(profile: SqlDialectProfile): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("provider_blocks")
        .addColumn("id", profile.autoIncrementColumnType(), (c) => profile.autoIncrement(c.primaryKey()))
        .addColumn("organisation_id", "bigint", (c) => c.notNull().references("organisations.id"))
        .addColumn("provider_id", "integer", (c) => c.notNull().references("providers.id"))
        .addColumn("starts_at", TIME, (c) => c.notNull())
        .addColumn("ends_at", TIME, (c) => c.notNull())
        .addColumn("last_ends_at", TIME, (c) => c.notNull())
        .addColumn("reason", "varchar(200)", (c) => c.notNull())
        .addColumn("time_zone", "varchar(64)")
        .addColumn("rrule", "varchar(500)")
        .addColumn("created_at", TIME, (c) => c.notNull())
        .addColumn("removed_at", TIME)
        .execute();
      await db.schema
        .createIndex("provider_blocks_provider_ix")
        .on("provider_blocks")
        .columns(["organisation_id", "provider_id", "last_ends_at"])
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable("provider_blocks").execute();
    },
  };
}
