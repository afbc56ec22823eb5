import type { Kysely, Migration } from "kysely";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";

/**
 * Eligibility checks of coverages, kept whatever the outcome: the structured result and rejections as JSON text
 * (read whole), the raw X12 270 and 271 for audit. Read newest first per coverage.
 */
export function eligibilityChecksMigration(profile: SqlDialectProfile): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("eligibility_checks")
        .addColumn("id", profile.autoIncrementColumnType(), (c) => profile.autoIncrement(c.primaryKey()))
        .addColumn("organisation_id", "bigint", (c) => c.notNull().references("organisations.id"))
        .addColumn("patient_id", "bigint", (c) => c.notNull())
        .addColumn("coverage_id", "bigint", (c) => c.notNull())
        .addColumn("source", "varchar(10)", (c) => c.notNull())
        .addColumn("status", "varchar(10)", (c) => c.notNull())
        .addColumn("service_date", "varchar(10)", (c) => c.notNull())
        .addColumn("result", "text")
        .addColumn("rejections", "text", (c) => c.notNull())
        .addColumn("error_code", "varchar(40)")
        .addColumn("error_message", "varchar(1000)")
        .addColumn("request_x12", "text")
        .addColumn("response_x12", "text")
        .addColumn("reference", "varchar(100)")
        .addColumn("notes", "varchar(2000)")
        .addColumn("checked_by", "bigint")
        .addColumn("checked_at", "varchar(30)", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("eligibility_checks_coverage_ix")
        .on("eligibility_checks")
        .columns(["organisation_id", "coverage_id", "id"])
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable("eligibility_checks").execute();
    },
  };
}
