import type { Kysely, Migration } from "kysely";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";

const TIME = "varchar(30)";

/**
 * The payer registry and organisations' own payers in one table. Registry rows carry organisation_id 0 (no
 * organisation has it), so one unique key on (organisation_id, payer_id) covers both kinds on every engine.
 */
export function payersMigration(profile: SqlDialectProfile): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("payers")
        .addColumn("id", profile.autoIncrementColumnType(), (c) => profile.autoIncrement(c.primaryKey()))
        .addColumn("organisation_id", "bigint", (c) => c.notNull())
        .addColumn("payer_id", "varchar(20)", (c) => c.notNull())
        .addColumn("name", "varchar(200)", (c) => c.notNull())
        .addColumn("name_sort", "varchar(200)", (c) => c.notNull())
        .addColumn("payer_type", "varchar(30)", (c) => c.notNull())
        .addColumn("eligibility", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("active", "integer", (c) => c.notNull().defaultTo(1))
        .addColumn("search_text", "varchar(240)", (c) => c.notNull())
        .addColumn("created_at", TIME, (c) => c.notNull())
        .addColumn("updated_at", TIME, (c) => c.notNull())
        .addUniqueConstraint("payers_org_payer_uq", ["organisation_id", "payer_id"])
        .execute();
      await db.schema
        .createIndex("payers_org_name_ix")
        .on("payers")
        .columns(["organisation_id", "name_sort", "id"])
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable("payers").execute();
    },
  };
}
