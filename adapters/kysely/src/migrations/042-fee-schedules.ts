import type { Kysely, Migration } from "kysely";

/**
 * Organisations' fee schedules (docs/medicare-therapy.md#fee-schedule): the allowed amount of each billing code by
 * calendar year, in cents; one row per organisation, year and code (the key the threshold lookups read by).
 */
export function feeSchedulesMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("fee_schedule_entries")
        .addColumn("organisation_id", "bigint", (c) => c.notNull().references("organisations.id"))
        .addColumn("year", "integer", (c) => c.notNull())
        .addColumn("code", "varchar(5)", (c) => c.notNull())
        .addColumn("allowed_cents", "bigint", (c) => c.notNull())
        .addColumn("updated_at", "varchar(30)", (c) => c.notNull())
        .addPrimaryKeyConstraint("fee_schedule_entries_pk", ["organisation_id", "year", "code"])
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable("fee_schedule_entries").execute();
    },
  };
}
