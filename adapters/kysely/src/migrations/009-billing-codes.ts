import type { Kysely, Migration } from "kysely";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";

const TIME = "varchar(30)";

/** The organisation's billing-code catalog (CPT/HCPCS numbers with our own descriptions). */
export function billingCodesMigration(profile: SqlDialectProfile): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("billing_codes")
        .addColumn("id", profile.autoIncrementColumnType(), (c) => profile.autoIncrement(c.primaryKey()))
        .addColumn("organisation_id", "bigint", (c) => c.notNull().references("organisations.id"))
        .addColumn("code", "varchar(5)", (c) => c.notNull())
        .addColumn("description", "varchar(300)", (c) => c.notNull())
        .addColumn("timed", "integer", (c) => c.notNull())
        .addColumn("modifiers", "text", (c) => c.notNull())
        .addColumn("specialities", "text", (c) => c.notNull())
        .addColumn("note_types", "text", (c) => c.notNull())
        .addColumn("payer_ids", "text", (c) => c.notNull())
        .addColumn("active", "integer", (c) => c.notNull())
        .addColumn("created_at", TIME, (c) => c.notNull())
        .addColumn("updated_at", TIME, (c) => c.notNull())
        .addUniqueConstraint("billing_codes_org_code_uq", ["organisation_id", "code"])
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable("billing_codes").execute();
    },
  };
}
