import type { Kysely, Migration } from "kysely";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";

const TIME = "varchar(30)";

/**
 * Providers' working hours: one row per version of a recurring shift. Dates and wall-clock times are text
 * (YYYY-MM-DD, HH:MM), read in the clinic's zone by the scheduling rules; a replaced version keeps its row.
 */
export function providerSchedulesMigration(profile: SqlDialectProfile): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("provider_schedules")
        .addColumn("id", profile.autoIncrementColumnType(), (c) => profile.autoIncrement(c.primaryKey()))
        .addColumn("organisation_id", "bigint", (c) => c.notNull().references("organisations.id"))
        .addColumn("provider_id", "integer", (c) => c.notNull().references("providers.id"))
        .addColumn("clinic_id", "integer", (c) => c.notNull().references("clinics.id"))
        .addColumn("weekdays", "varchar(30)", (c) => c.notNull())
        .addColumn("start_time", "varchar(5)", (c) => c.notNull())
        .addColumn("end_time", "varchar(5)", (c) => c.notNull())
        .addColumn("effective_from", "varchar(10)", (c) => c.notNull())
        .addColumn("effective_until", "varchar(10)")
        .addColumn("rrule", "varchar(500)")
        .addColumn("replaces_id", "integer")
        .addColumn("replaced_by_id", "integer")
        .addColumn("created_at", TIME, (c) => c.notNull())
        .addColumn("updated_at", TIME, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("provider_schedules_provider_ix")
        .on("provider_schedules")
        .columns(["organisation_id", "provider_id", "effective_from", "id"])
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable("provider_schedules").execute();
    },
  };
}
