import type { Kysely, Migration } from "kysely";

/**
 * The Medicare Part B flag of payers (docs/medicare-therapy.md): the outpatient therapy rules apply to coverages
 * naming a payer that carries it. Existing payers do not (0); the registry import sets it from its
 * `medicare_part_b` column.
 */
export function payerMedicarePartBMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable("payers")
        .addColumn("medicare_part_b", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.alterTable("payers").dropColumn("medicare_part_b").execute();
    },
  };
}
