import type { Kysely, Migration } from "kysely";

/**
 * What Medicare's therapy rules read of a plan of care (docs/medicare-therapy.md): its discipline (PT, OT or SLP;
 * what GP, GO or GN is proposed from) and its certification by the physician or NPP (the date they signed, and
 * who). Existing plans have none (NULL) until their next evaluation or certification.
 */
export function planOfCareMedicareMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable("plans_of_care").addColumn("discipline", "varchar(3)").execute();
      await db.schema.alterTable("plans_of_care").addColumn("certified_on", "varchar(10)").execute();
      await db.schema.alterTable("plans_of_care").addColumn("certified_by", "varchar(200)").execute();
    },
    async down(db: Kysely<any>) {
      for (const column of ["certified_by", "certified_on", "discipline"])
        await db.schema.alterTable("plans_of_care").dropColumn(column).execute();
    },
  };
}
