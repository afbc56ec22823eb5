import { createPatientCountsTable } from "@openpractice/kysely";
import { sql, type Kysely, type Migration } from "kysely";

/** +1 per new row, −1 per old row, summed per (organisation, status); `rows` is a SELECT over the transition tables. */
const applyDelta = (rows: string) => `
  insert into patient_counts (organisation_id, status, shard, patients)
  select organisation_id, status, pg_backend_pid() % 16, sum(delta) from (${rows}) d
  group by organisation_id, status having sum(delta) <> 0 order by organisation_id, status
  on conflict (organisation_id, status, shard) do update set patients = patient_counts.patients + excluded.patients`;

const FUNCTIONS = {
  patient_counts_inserted: applyDelta("select organisation_id, status, 1 as delta from new_rows"),
  patient_counts_deleted: applyDelta("select organisation_id, status, -1 as delta from old_rows"),
  patient_counts_updated: applyDelta(
    "select organisation_id, status, 1 as delta from new_rows union all select organisation_id, status, -1 from old_rows",
  ),
};

/**
 * Migration 034: exact patient counts per organisation and status (`patient_counts`, read by
 * @openpractice/kysely's keptPatientCounts), kept by statement-level
 * triggers on `patients` in the writer's transaction, so every write path (API,
 * imports, bulk loads, raw SQL) keeps them. The unsearched list's `total_count`
 * reads them instead of counting the organisation's rows: 120 ms for a
 * 375,000-patient organisation becomes a read of at most 16 rows.
 *
 * Each (organisation, status) is split over 16 shards chosen by the writing
 * backend (pg_backend_pid() % 16), so concurrent registrations in one busy
 * organisation do not queue on one counter row until their commits; the count is
 * the shards' sum. Rows are upserted in key order, so two bulk writers cannot
 * deadlock on them. TRUNCATE of patients clears the counts.
 */
export const patientCountsMigration = {
  async up(db: Kysely<any>) {
    await createPatientCountsTable(db);
    for (const [name, body] of Object.entries(FUNCTIONS)) {
      await sql
        .raw(`create function ${name}() returns trigger language plpgsql as $$ begin ${body}; return null; end $$`)
        .execute(db);
    }
    await sql`create function patient_counts_truncated() returns trigger language plpgsql as $$
      begin delete from patient_counts; return null; end $$`.execute(db);
    await sql`create trigger patients_counts_ai after insert on patients referencing new table as new_rows
      for each statement execute function patient_counts_inserted()`.execute(db);
    await sql`create trigger patients_counts_ad after delete on patients referencing old table as old_rows
      for each statement execute function patient_counts_deleted()`.execute(db);
    await sql`create trigger patients_counts_au after update on patients referencing old table as old_rows new table as new_rows
      for each statement execute function patient_counts_updated()`.execute(db);
    await sql`create trigger patients_counts_at after truncate on patients
      for each statement execute function patient_counts_truncated()`.execute(db);
    // The rows already there, counted once; the lock keeps writers out until the triggers and the counts agree.
    await sql`lock table patients in share mode`.execute(db);
    await sql`insert into patient_counts (organisation_id, status, shard, patients)
      select organisation_id, status, 0, count(*) from patients group by organisation_id, status`.execute(db);
  },
  async down(db: Kysely<any>) {
    for (const t of ["ai", "ad", "au", "at"])
      await sql.raw(`drop trigger patients_counts_${t} on patients`).execute(db);
    for (const name of [...Object.keys(FUNCTIONS), "patient_counts_truncated"])
      await sql.raw(`drop function ${name}()`).execute(db);
    await sql`drop table patient_counts`.execute(db);
  },
} satisfies Migration;
