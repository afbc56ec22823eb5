import type { Kysely, Migration } from "kysely";

/** The organisation setting that makes the Plan section required for signing (off by default: spec 2.1 names three sections). */
export function planSectionSettingMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable("organisations")
        .addColumn("require_plan_section", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.alterTable("organisations").dropColumn("require_plan_section").execute();
    },
  };
}
