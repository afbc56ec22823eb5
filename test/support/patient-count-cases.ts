import type { Storage } from "@openpractice/core";
import { keptPatientCounts, type Database } from "@openpractice/kysely";
import { sql, type Kysely } from "kysely";
import { expect } from "vitest";
import { searchCaseCriteria as criteria, T0 } from "./patient-search-cases.js";

// The kept patient counts (PostgreSQL migration 034, MySQL/MariaDB 035) against count(*), shared by the engines'
// tests: the same writes, the same expectations.

type Row = { organisation_id: number | string; status: string; n: number | string };
const asMap = (rows: Row[]) =>
  Object.fromEntries(
    rows
      .map((r) => [`${r.organisation_id}/${r.status}`, Number(r.n)] as const)
      .filter(([, n]) => n !== 0)
      .sort(([a], [b]) => a.localeCompare(b)),
  );

/** count(*) of the patients per organisation and status, and what patient_counts holds, both as "org/status" → n. */
export async function countsNow(db: Kysely<Database>) {
  const counted = await sql<Row>`select organisation_id, status, count(*) as n from patients
    group by organisation_id, status`.execute(db);
  const kept = await sql<Row>`select organisation_id, status, sum(patients) as n from patient_counts
    group by organisation_id, status`.execute(db);
  return { counted: asMap(counted.rows), kept: asMap(kept.rows) };
}

/** A patient row written by plain SQL, as a bulk load or another program would: the triggers must count it too. */
export const plainPatientInsert = (org: number, name: string, status = "active") =>
  `insert into patients (organisation_id, first_name, last_name, date_of_birth, sex, status, identity_key, search_text,
     first_name_sort, last_name_sort, created_at, updated_at)
   values (${org}, '${name}', 'Bulk', '1990-01-01', 'OTHER', '${status}', '${name}|bulk|1990-01-01',
     '${name} bulk', '${name}', 'bulk', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`;

/** Runs `work` on a connection of its own; `run` sends one statement on it. */
export type OnOwnConnection = (work: (run: (statement: string) => Promise<unknown>) => Promise<void>) => Promise<void>;

/**
 * 8 connections × 25 single-row inserts at the same time, a status change and
 * a delete of many rows, and an insert rolled back: the kept counts equal
 * count(*) afterwards, and the writers spread over more than two shards.
 */
export async function expectCountsKeptThroughWrites(db: Kysely<Database>, onOwnConnection: OnOwnConnection) {
  expect((await countsNow(db)).kept).toEqual((await countsNow(db)).counted);
  await Promise.all(
    Array.from({ length: 8 }, (_, w) =>
      onOwnConnection(async (run) => {
        for (let i = 0; i < 25; i++)
          await run(plainPatientInsert(2, `w${w}n${i}`, i % 5 === 0 ? "inactive" : "active"));
      }),
    ),
  );
  await db
    .updateTable("patients")
    .set({ status: "inactive" })
    .where("organisation_id", "=", 2)
    .where("first_name", "like", "w1n%")
    .execute();
  await db.deleteFrom("patients").where("organisation_id", "=", 2).where("first_name", "like", "w2n%").execute();
  await onOwnConnection(async (run) => {
    await run("begin");
    await run(plainPatientInsert(1, "rolledback"));
    await run("rollback");
  });
  const { counted, kept } = await countsNow(db);
  expect(kept).toEqual(counted);
  expect(counted["2/active"]).toBeGreaterThan(100);
  const shards = await sql<{ n: number | string }>`select count(*) as n from patient_counts
    where organisation_id = 2`.execute(db);
  expect(Number(shards.rows[0]?.n)).toBeGreaterThan(2);
}

/**
 * The unsearched list's total read from the kept counts equals the shared
 * SQL's count for organisations 1 to 3 and every status, and the engine's
 * whole list answers as the shared one; a list with date bounds is left to the
 * list's own count.
 */
export async function expectKeptTotalsAsCounted(db: Kysely<Database>, shared: Storage, indexed: Storage) {
  for (const org of [1, 2, 3])
    for (const status of ["active", "inactive", "all"] as const) {
      const c = criteria(org, "", { status });
      expect(await keptPatientCounts.total(db, c), `${org} ${status}`).toBe(
        (await shared.repositories.patients.list(c)).total,
      );
      expect(await indexed.repositories.patients.list(c), `${org} ${status}`).toEqual(
        await shared.repositories.patients.list(c),
      );
    }
  const bounded = criteria(1, "", { createdFrom: new Date(T0 + 20 * 60_000) });
  expect(await keptPatientCounts.total(db, bounded)).toBeUndefined();
  expect(await indexed.repositories.patients.list(bounded)).toEqual(await shared.repositories.patients.list(bounded));
}
