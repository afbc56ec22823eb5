import type { Kysely, Migration } from "kysely";

/** Appointment types (categories) get a calendar colour and an active flag; existing ones stay active, without colour. */
export function appointmentTypeDetailsMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable("appointment_categories").addColumn("colour", "varchar(7)").execute();
      await db.schema
        .alterTable("appointment_categories")
        .addColumn("active", "integer", (c) => c.notNull().defaultTo(1))
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.alterTable("appointment_categories").dropColumn("active").execute();
      await db.schema.alterTable("appointment_categories").dropColumn("colour").execute();
    },
  };
}
