import type { Kysely, Migration } from "kysely";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";

const TIME = "varchar(30)";

/**
 * Waitlist requests (lists as JSON text: they are read whole, never searched in SQL; priority_rank orders them)
 * and their offers. An offer is unique per (request, provider, start), so a slot is never offered to one request
 * twice; pending offers that have not expired hold their time.
 */
export function waitlistMigration(profile: SqlDialectProfile): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("waitlist_requests")
        .addColumn("id", profile.autoIncrementColumnType(), (c) => profile.autoIncrement(c.primaryKey()))
        .addColumn("organisation_id", "bigint", (c) => c.notNull().references("organisations.id"))
        .addColumn("patient_id", "bigint", (c) => c.notNull())
        .addColumn("service_case_id", "bigint")
        .addColumn("provider_ids", "varchar(400)", (c) => c.notNull())
        .addColumn("clinic_ids", "varchar(400)", (c) => c.notNull())
        .addColumn("appointment_type_id", "bigint", (c) => c.notNull())
        .addColumn("preferred_days", "varchar(40)", (c) => c.notNull())
        .addColumn("time_windows", "varchar(400)", (c) => c.notNull())
        .addColumn("earliest_date", "varchar(10)")
        .addColumn("latest_date", "varchar(10)")
        .addColumn("priority", "varchar(10)", (c) => c.notNull())
        .addColumn("priority_rank", "integer", (c) => c.notNull())
        .addColumn("payment_mode", "varchar(20)", (c) => c.notNull())
        .addColumn("notes", "varchar(2000)")
        .addColumn("status", "varchar(12)", (c) => c.notNull())
        .addColumn("appointment_id", "bigint")
        .addColumn("created_at", TIME, (c) => c.notNull())
        .addColumn("updated_at", TIME, (c) => c.notNull())
        .addColumn("version", "integer", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("waitlist_requests_org_status_ix")
        .on("waitlist_requests")
        .columns(["organisation_id", "status", "priority_rank", "created_at"])
        .execute();
      await db.schema
        .createTable("waitlist_offers")
        .addColumn("id", profile.autoIncrementColumnType(), (c) => profile.autoIncrement(c.primaryKey()))
        .addColumn("organisation_id", "bigint", (c) => c.notNull().references("organisations.id"))
        .addColumn("request_id", "bigint", (c) => c.notNull())
        .addColumn("provider_id", "integer", (c) => c.notNull())
        .addColumn("clinic_id", "bigint", (c) => c.notNull())
        .addColumn("starts_at", TIME, (c) => c.notNull())
        .addColumn("ends_at", TIME, (c) => c.notNull())
        .addColumn("status", "varchar(12)", (c) => c.notNull())
        .addColumn("expires_at", TIME, (c) => c.notNull())
        .addColumn("created_at", TIME, (c) => c.notNull())
        .addColumn("decided_at", TIME)
        .addColumn("appointment_id", "bigint")
        .addUniqueConstraint("waitlist_offers_slot_uq", ["request_id", "provider_id", "starts_at"])
        .execute();
      await db.schema
        .createIndex("waitlist_offers_holds_ix")
        .on("waitlist_offers")
        .columns(["organisation_id", "provider_id", "status", "starts_at"])
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable("waitlist_offers").execute();
      await db.schema.dropTable("waitlist_requests").execute();
    },
  };
}
