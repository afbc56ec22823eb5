import type { Kysely, Migration } from "kysely";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";

const TIME = "varchar(30)";

/**
 * Appointments, their categories and their audit trail; the clinic's
 * double-booking setting; the provider's schedule_version, whose row lock
 * serialises bookings of one doctor (AppointmentRepository.lockDoctorSchedule).
 */
export function appointmentsMigration(profile: SqlDialectProfile): Migration {
  const id = (b: Parameters<SqlDialectProfile["autoIncrement"]>[0]) => profile.autoIncrement(b.primaryKey());
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable("clinics")
        .addColumn("allow_double_booking", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable("providers")
        .addColumn("schedule_version", "integer", (c) => c.notNull().defaultTo(0))
        .execute();

      await db.schema
        .createTable("appointments")
        .addColumn("id", profile.autoIncrementColumnType(), id)
        .addColumn("organisation_id", "bigint", (c) => c.notNull().references("organisations.id"))
        .addColumn("patient_id", "integer", (c) => c.notNull().references("patients.id"))
        .addColumn("doctor_id", "bigint", (c) => c.notNull())
        .addColumn("clinic_id", "integer", (c) => c.notNull().references("clinics.id"))
        .addColumn("starts_at", TIME, (c) => c.notNull())
        .addColumn("ends_at", TIME, (c) => c.notNull())
        .addColumn("payment_mode", "varchar(20)", (c) => c.notNull())
        .addColumn("service_case_id", "bigint")
        .addColumn("tele_health_url", "varchar(2048)")
        .addColumn("comments", "text")
        .addColumn("appointment_notes", "text")
        .addColumn("status", "varchar(20)", (c) => c.notNull())
        .addColumn("cancellation_reason_key", "varchar(64)")
        .addColumn("cancellation_reason_label", "varchar(200)")
        .addColumn("cancellation_reason_comment", "text")
        .addColumn("cancellation_fee", "numeric(10, 2)")
        .addColumn("cancelled_at", TIME)
        .addColumn("cancelled_by", "bigint")
        .addColumn("created_by", "bigint")
        .addColumn("created_at", TIME, (c) => c.notNull())
        .addColumn("updated_at", TIME, (c) => c.notNull())
        .addColumn("version", "integer", (c) => c.notNull())
        // The doctor is a provider of the same organisation, enforced by the database.
        .addForeignKeyConstraint("appointments_doctor_fk", ["organisation_id", "doctor_id"], "providers", [
          "organisation_id",
          "user_id",
        ])
        .execute();
      await db.schema
        .createIndex("appointments_org_starts_ix")
        .on("appointments")
        .columns(["organisation_id", "starts_at", "id"])
        .execute();
      await db.schema
        .createIndex("appointments_org_doctor_starts_ix")
        .on("appointments")
        .columns(["organisation_id", "doctor_id", "starts_at"])
        .execute();
      await db.schema
        .createIndex("appointments_org_patient_starts_ix")
        .on("appointments")
        .columns(["organisation_id", "patient_id", "starts_at"])
        .execute();

      await db.schema
        .createTable("appointment_category_links")
        .addColumn("appointment_id", "integer", (c) => c.notNull().references("appointments.id"))
        .addColumn("category_id", "integer", (c) => c.notNull().references("appointment_categories.id"))
        .addPrimaryKeyConstraint("appointment_category_links_pk", ["appointment_id", "category_id"])
        .execute();
      await db.schema
        .createIndex("appointment_category_links_category_ix")
        .on("appointment_category_links")
        .columns(["category_id", "appointment_id"])
        .execute();

      await db.schema
        .createTable("appointment_history")
        .addColumn("id", profile.autoIncrementColumnType(), id)
        .addColumn("organisation_id", "bigint", (c) => c.notNull())
        .addColumn("appointment_id", "integer", (c) => c.notNull().references("appointments.id"))
        .addColumn("action", "varchar(20)", (c) => c.notNull())
        .addColumn("from_status", "varchar(20)")
        .addColumn("to_status", "varchar(20)", (c) => c.notNull())
        .addColumn("starts_at", TIME, (c) => c.notNull())
        .addColumn("ends_at", TIME, (c) => c.notNull())
        .addColumn("by_user_id", "bigint")
        .addColumn("at", TIME, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("appointment_history_appointment_ix")
        .on("appointment_history")
        .columns(["appointment_id", "id"])
        .execute();
    },
    async down(db: Kysely<any>) {
      for (const t of ["appointment_history", "appointment_category_links", "appointments"])
        await db.schema.dropTable(t).execute();
      await db.schema.alterTable("providers").dropColumn("schedule_version").execute();
      await db.schema.alterTable("clinics").dropColumn("allow_double_booking").execute();
    },
  };
}
