import { type Kysely, type Migration, sql } from "kysely";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";

/**
 * v2 coverages are v1's insurance cards with more fields (spec 4.7): group, plan, subscriber, the patient's order
 * and an active flag; deleted cards stay for the cases that copied them (deleted_at). Existing cards read as before:
 * the patient is the subscriber, no order, active, updated when created.
 */
export function coverageDetailsMigration(_profile: SqlDialectProfile): Migration {
  return {
    async up(db: Kysely<any>) {
      const columns: Array<[string, string, boolean]> = [
        ["group_number", "varchar(50)", false],
        ["plan_name", "varchar(200)", false],
        ["subscriber_first_name", "varchar(100)", false],
        ["subscriber_last_name", "varchar(100)", false],
        ["subscriber_date_of_birth", "varchar(10)", false],
        ["coverage_priority", "varchar(10)", false],
        ["updated_at", "varchar(30)", false],
        ["deleted_at", "varchar(30)", false],
      ];
      for (const [name, type] of columns)
        await db.schema.alterTable("insurance_cards").addColumn(name, sql.raw(type)).execute();
      await db.schema
        .alterTable("insurance_cards")
        .addColumn("subscriber_relationship", "varchar(10)", (c) => c.notNull().defaultTo("self"))
        .execute();
      await db.schema
        .alterTable("insurance_cards")
        .addColumn("active", "integer", (c) => c.notNull().defaultTo(1))
        .execute();
      await db.updateTable("insurance_cards").set({ updated_at: sql`created_at` }).execute();
    },
    async down(db: Kysely<any>) {
      for (const name of [
        "group_number",
        "plan_name",
        "subscriber_first_name",
        "subscriber_last_name",
        "subscriber_date_of_birth",
        "coverage_priority",
        "updated_at",
        "deleted_at",
        "subscriber_relationship",
        "active",
      ])
        await db.schema.alterTable("insurance_cards").dropColumn(name).execute();
    },
  };
}
