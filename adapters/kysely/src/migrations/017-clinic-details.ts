import { type Kysely, type Migration, sql } from "kysely";

const TIME = "varchar(30)";

/**
 * What a clinic needs beyond its name and time zone for the v2 directory: address, phone, place of service,
 * NPI, tax id, an active flag and its times. Existing clinics become active offices stamped with the migration time.
 */
export function clinicDetailsMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      const columns: Array<[string, string, boolean]> = [
        ["address_line1", "varchar(200)", false],
        ["address_line2", "varchar(200)", false],
        ["city", "varchar(100)", false],
        ["state", "varchar(2)", false],
        ["postal_code", "varchar(10)", false],
        ["country", "varchar(2)", false],
        ["phone", "varchar(30)", false],
        ["npi", "varchar(10)", false],
        ["tax_id", "varchar(9)", false],
        ["created_at", TIME, false],
        ["updated_at", TIME, false],
      ];
      // One column per statement: SQLite alters one column at a time.
      for (const [name, type] of columns)
        await db.schema.alterTable("clinics").addColumn(name, sql.raw(type)).execute();
      await db.schema
        .alterTable("clinics")
        .addColumn("place_of_service", "varchar(2)", (c) => c.notNull().defaultTo("11"))
        .execute();
      await db.schema
        .alterTable("clinics")
        .addColumn("active", "integer", (c) => c.notNull().defaultTo(1))
        .execute();
      const now = new Date().toISOString();
      await db
        .updateTable("clinics")
        .set({ created_at: now, updated_at: now })
        .where("created_at", "is", null)
        .execute();
    },
    async down(db: Kysely<any>) {
      for (const name of [
        "address_line1",
        "address_line2",
        "city",
        "state",
        "postal_code",
        "country",
        "phone",
        "npi",
        "tax_id",
        "created_at",
        "updated_at",
        "place_of_service",
        "active",
      ])
        await db.schema.alterTable("clinics").dropColumn(name).execute();
    },
  };
}
