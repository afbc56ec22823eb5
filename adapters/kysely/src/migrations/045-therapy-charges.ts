import type { Kysely, Migration } from "kysely";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";

/**
 * The ledger of amounts counted towards Medicare Part B beneficiaries' therapy thresholds
 * (docs/medicare-therapy.md): one row per billed line of a completed visit, or per amount incurred elsewhere. The
 * index serves the one aggregate a treatment-sheet write runs (organisation, patient, year, up to a date).
 */
export function therapyChargesMigration(profile: SqlDialectProfile): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("therapy_charges")
        .addColumn("id", profile.autoIncrementColumnType(), (c) => profile.autoIncrement(c.primaryKey()))
        .addColumn("organisation_id", "bigint", (c) => c.notNull().references("organisations.id"))
        .addColumn("patient_id", "bigint", (c) => c.notNull())
        .addColumn("year", "integer", (c) => c.notNull())
        .addColumn("bucket", "varchar(6)", (c) => c.notNull())
        .addColumn("source", "varchar(10)", (c) => c.notNull())
        .addColumn("context_id", "varchar(40)")
        .addColumn("service_date", "varchar(10)", (c) => c.notNull())
        .addColumn("code", "varchar(5)")
        .addColumn("units", "integer", (c) => c.notNull())
        .addColumn("allowed_cents", "bigint", (c) => c.notNull())
        .addColumn("priced", "integer", (c) => c.notNull())
        .addColumn("kx", "integer", (c) => c.notNull())
        .addColumn("description", "varchar(500)")
        .addColumn("recorded_by", "bigint")
        .addColumn("created_at", "varchar(30)", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("therapy_charges_patient_year")
        .on("therapy_charges")
        .columns(["organisation_id", "patient_id", "year", "service_date"])
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable("therapy_charges").execute();
    },
  };
}
