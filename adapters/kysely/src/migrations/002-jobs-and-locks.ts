import type { Kysely, Migration } from "kysely";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";

const TIME = "varchar(30)";

/** The job queue and the named locks of periodic tasks. */
export function jobsAndLocksMigration(profile: SqlDialectProfile): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("jobs")
        .addColumn("id", profile.autoIncrementColumnType(), (c) => profile.autoIncrement(c.primaryKey()))
        .addColumn("queue", "varchar(100)", (c) => c.notNull())
        .addColumn("payload", "text", (c) => c.notNull())
        .addColumn("status", "varchar(10)", (c) => c.notNull())
        .addColumn("run_at", TIME, (c) => c.notNull())
        .addColumn("attempts", "integer", (c) => c.notNull())
        .addColumn("lease_token", "varchar(64)")
        .addColumn("lease_expires_at", TIME)
        .addColumn("last_error", "text")
        .addColumn("completed_by", "varchar(100)")
        .addColumn("created_at", TIME, (c) => c.notNull())
        .addColumn("finished_at", TIME)
        .execute();
      // The claim query: pending jobs of a queue in due order.
      await db.schema.createIndex("jobs_claim_ix").on("jobs").columns(["queue", "status", "run_at", "id"]).execute();

      await db.schema
        .createTable("locks")
        .addColumn("name", "varchar(100)", (c) => c.primaryKey())
        .addColumn("holder", "varchar(100)", (c) => c.notNull())
        .addColumn("expires_at", TIME, (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable("locks").execute();
      await db.schema.dropTable("jobs").execute();
    },
  };
}
