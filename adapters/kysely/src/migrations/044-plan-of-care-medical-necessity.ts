import type { Kysely, Migration } from "kysely";

/**
 * A plan of care's medical-necessity justification (docs/medicare-therapy.md): text from the evaluation's Plan
 * form, which Medicare asks for before services past the KX threshold. Existing plans have none (NULL).
 */
export function planOfCareMedicalNecessityMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable("plans_of_care").addColumn("medical_necessity", "text").execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.alterTable("plans_of_care").dropColumn("medical_necessity").execute();
    },
  };
}
