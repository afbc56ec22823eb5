import { createPatientCountsTable, PATIENT_COUNTS_TABLE } from "@openpractice/kysely";
import { sql, type Kysely, type Migration } from "kysely";

const TRIGGERS = ["patients_counts_ai", "patients_counts_au", "patients_counts_ad"];

/**
 * One row's ±1 on its (organisation, status) counter, in the shard of the
 * writing connection (connection_id() % 16): concurrent registrations in one
 * busy organisation then lock different counter rows until their commits.
 */
const addOne = (r: "new" | "old", delta: 1 | -1) =>
  `insert into ${PATIENT_COUNTS_TABLE} (organisation_id, status, shard, patients)
   values (${r}.organisation_id, ${r}.status, connection_id() % 16, ${delta})
   on duplicate key update patients = patients + ${delta}`;

/**
 * Migration 035 (MySQL 8 / MariaDB): exact patient counts per organisation and
 * status in `patient_counts`, kept by row triggers on `patients` in the
 * writer's transaction (MySQL has no statement-level triggers), so every write
 * path keeps them; the unsearched list's `total_count` reads them
 * (@openpractice/kysely's keptPatientCounts) instead of counting the
 * organisation's rows. TRUNCATE fires no triggers in MySQL: after a TRUNCATE of
 * `patients`, empty `patient_counts` too.
 */
export const mysqlPatientCountsMigration = {
  async up(db: Kysely<any>) {
    await createPatientCountsTable(db);
    await sql
      .raw(`create trigger ${TRIGGERS[0]} after insert on patients for each row ${addOne("new", 1)}`)
      .execute(db);
    // MySQL has no UPDATE OF column: the body skips updates that leave organisation and status alone.
    await sql
      .raw(
        `create trigger ${TRIGGERS[1]} after update on patients for each row
         begin
           if not (new.organisation_id <=> old.organisation_id and new.status <=> old.status) then
             ${addOne("old", -1)};
             ${addOne("new", 1)};
           end if;
         end`,
      )
      .execute(db);
    await sql
      .raw(`create trigger ${TRIGGERS[2]} after delete on patients for each row ${addOne("old", -1)}`)
      .execute(db);
    // The backfill with the triggers already on: under LOCK TABLES nobody writes patients, and the counts are
    // recounted from scratch, so a row a trigger counted before the lock is not counted twice. LOCK TABLES belongs
    // to one connection: the statements run on one.
    await db.connection().execute(async (conn) => {
      await sql`lock tables patients read, ${sql.raw(PATIENT_COUNTS_TABLE)} write`.execute(conn);
      try {
        await sql`delete from ${sql.raw(PATIENT_COUNTS_TABLE)}`.execute(conn);
        await sql`insert into ${sql.raw(PATIENT_COUNTS_TABLE)} (organisation_id, status, shard, patients)
          select organisation_id, status, 0, count(*) from patients group by organisation_id, status`.execute(conn);
      } finally {
        await sql`unlock tables`.execute(conn);
      }
    });
  },
  async down(db: Kysely<any>) {
    for (const t of TRIGGERS) await sql.raw(`drop trigger if exists ${t}`).execute(db);
    await sql`drop table ${sql.raw(PATIENT_COUNTS_TABLE)}`.execute(db);
  },
} satisfies Migration;
