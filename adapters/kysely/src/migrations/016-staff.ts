import type { Kysely, Migration } from "kysely";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";

const TIME = "varchar(30)";

/**
 * Staff members and the clinics they work at. The email is unique per organisation on its lower-cased form
 * (email_key); roles are JSON text, read and written whole; clinic memberships are rows so a list can filter on them.
 */
export function staffMigration(profile: SqlDialectProfile): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("staff")
        .addColumn("id", profile.autoIncrementColumnType(), (c) => profile.autoIncrement(c.primaryKey()))
        .addColumn("organisation_id", "bigint", (c) => c.notNull().references("organisations.id"))
        .addColumn("first_name", "varchar(100)", (c) => c.notNull())
        .addColumn("last_name", "varchar(100)", (c) => c.notNull())
        .addColumn("last_name_sort", "varchar(100)", (c) => c.notNull())
        .addColumn("first_name_sort", "varchar(100)", (c) => c.notNull())
        .addColumn("email", "varchar(254)", (c) => c.notNull())
        .addColumn("email_key", "varchar(254)", (c) => c.notNull())
        .addColumn("phone", "varchar(30)")
        .addColumn("roles", "text", (c) => c.notNull())
        .addColumn("status", "varchar(10)", (c) => c.notNull())
        .addColumn("search_text", "varchar(500)", (c) => c.notNull())
        .addColumn("created_at", TIME, (c) => c.notNull())
        .addColumn("updated_at", TIME, (c) => c.notNull())
        .addColumn("deactivated_at", TIME)
        .addUniqueConstraint("staff_org_email_uq", ["organisation_id", "email_key"])
        .execute();
      await db.schema
        .createIndex("staff_org_last_ix")
        .on("staff")
        .columns(["organisation_id", "last_name_sort", "id"])
        .execute();
      await db.schema
        .createTable("staff_clinics")
        .addColumn("staff_id", "integer", (c) => c.notNull().references("staff.id"))
        .addColumn("clinic_id", "integer", (c) => c.notNull().references("clinics.id"))
        .addPrimaryKeyConstraint("staff_clinics_pk", ["staff_id", "clinic_id"])
        .execute();
      await db.schema
        .createIndex("staff_clinics_clinic_ix")
        .on("staff_clinics")
        .columns(["clinic_id", "staff_id"])
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable("staff_clinics").execute();
      await db.schema.dropTable("staff").execute();
    },
  };
}
