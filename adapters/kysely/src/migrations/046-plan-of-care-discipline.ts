import type { Kysely, Migration } from "kysely";

/**
 * A plan of care's therapy discipline, PT, OT or SLP (docs/medicare-therapy.md): what GP, GO or GN is proposed
 * from on its visits' lines. Existing plans have none (NULL) until their next evaluation.
 */
export function planOfCareDisciplineMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable("plans_of_care").addColumn("discipline", "varchar(3)").execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.alterTable("plans_of_care").dropColumn("discipline").execute();
    },
  };
}
