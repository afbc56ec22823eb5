import { sql, type Kysely, type Migration } from "kysely";

/**
 * A completed note's PDF summary state (PENDING, READY, FAILED) and why it
 * failed. Notes completed before it: READY when their summary is linked,
 * PENDING when their job is still to run.
 */
export function soapSummaryStatusMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable("soap_notes").addColumn("summary_status", "varchar(10)").execute();
      await db.schema.alterTable("soap_notes").addColumn("summary_failure", "varchar(500)").execute();
      await sql`update soap_notes set summary_status = case when summary_doc_url is null then 'PENDING' else 'READY' end where status = 'COMPLETED'`.execute(
        db,
      );
    },
    async down(db: Kysely<any>) {
      await db.schema.alterTable("soap_notes").dropColumn("summary_failure").execute();
      await db.schema.alterTable("soap_notes").dropColumn("summary_status").execute();
    },
  };
}
