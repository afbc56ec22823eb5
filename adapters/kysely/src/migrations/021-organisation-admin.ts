import type { Kysely, Migration } from "kysely";

/**
 * What the platform operator sets on an organisation: its time zone, its deactivation (every token refused; unlike
 * the webhook profile's is_active, which only stops deliveries) and whether reads of patient records are audited.
 */
export function organisationAdminMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      // One column per statement: SQLite adds one at a time.
      await db.schema
        .alterTable("organisations")
        .addColumn("time_zone", "varchar(64)", (c) => c.notNull().defaultTo("UTC"))
        .execute();
      await db.schema.alterTable("organisations").addColumn("deactivated_at", "varchar(30)").execute();
      await db.schema
        .alterTable("organisations")
        .addColumn("audit_reads", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
    },
    async down(db: Kysely<any>) {
      for (const column of ["audit_reads", "deactivated_at", "time_zone"])
        await db.schema.alterTable("organisations").dropColumn(column).execute();
    },
  };
}
