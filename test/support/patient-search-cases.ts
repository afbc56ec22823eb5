import {
  patientFromDraft,
  searchTerms,
  toPatientRecord,
  type PatientDraft,
  type PatientListCriteria,
  type PatientRecord,
  type Storage,
} from "@openpractice/core";
import {
  KyselyStorage,
  rowToPatient,
  type Database,
  type PatientSearchIndex,
  type PatientsTable,
  type SqlDialectProfile,
} from "@openpractice/kysely";
import { Kysely, type Dialect, type Selectable } from "kysely";
import { expect } from "vitest";
import { createPrng, type Prng } from "../fuzz/prng.js";

// Patients and searches on which an engine's search index must answer exactly as the shared LIKE scan
// (test/integration/mysql-search-trigrams.test.ts, postgres-search-keys.test.ts): accents, other scripts,
// LIKE wildcards in the data, phone digits, terms of every length, and every filter, order and page.

const FIRST = ["Renée", "José", "Olivia", "Priya", "Łukasz", "Zoë", "Noah", "Ὀδυσσεύς", "Amélie", "Kenji"];
const LAST = ["Müller", "Núñez", "Søndergaard", "Kowalski", "Tanaka", "O'Brien", "カナコ", "Dubois", "Mueller", "Lee"];
export const T0 = Date.UTC(2026, 0, 1);

function draftFor(i: number, rnd: Prng): PatientDraft {
  const first = rnd.pick(FIRST);
  const last = rnd.pick(LAST);
  const digits = Array.from({ length: 7 }, () => rnd.int(0, 9)).join("");
  return {
    firstName: first,
    lastName: last,
    middleName: i % 9 === 0 ? "Anne-Marie" : null,
    dateOfBirth: `19${50 + (i % 50)}-0${1 + (i % 9)}-1${i % 10}`,
    phone: i % 11 === 0 ? null : `(555) ${digits.slice(0, 3)}-${digits.slice(3)}`,
    email: i % 13 === 0 ? null : `${first.toLowerCase()}_${i}@ex%ample.org`,
    status: i % 6 === 0 ? "inactive" : "active",
  };
}

export const searchCaseCriteria = (
  organisationId: number,
  search: string,
  more: Partial<PatientListCriteria> = {},
): PatientListCriteria => ({
  organisationId,
  searchTerms: searchTerms(search),
  status: "active",
  sort: "created_at",
  order: "desc",
  limit: 25,
  offset: 0,
  ...more,
});

export const SEARCH_CASE_TERMS: readonly string[] = [
  "kowal",
  "renee",
  "muller",
  "mueller",
  "nunez",
  "søndergaard",
  "sond",
  "lukasz",
  "łukasz",
  "amelie anne",
  "olivia tanaka",
  "priya 555",
  "o'brien",
  "ex%ample",
  "x%a",
  "e_1",
  "_12@",
  "(555)",
  "555-2",
  "555",
  "example.org",
  "ample.org priya kowal",
  "kenji カナコ",
  // Equal to katakana, final sigma and Arabic-Indic digits under utf8mb4_unicode_ci: the scan finds them.
  "かなこ",
  "οδυσσευσ",
  "υσσ",
  "zzz",
  "noah noah",
];
export const SEARCH_CASE_VARIANTS: ReadonlyArray<Partial<PatientListCriteria>> = [
  {},
  { status: "all" },
  { status: "inactive" },
  { sort: "last_name", order: "asc" },
  { sort: "first_name", order: "desc", status: "all" },
  { sort: "updated_at", order: "asc", limit: 7, offset: 7 },
  { order: "asc", limit: 5, offset: 20 },
  { countLimit: 4 },
  { countLimit: 1000, status: "all" },
  // Count limits with other sorts, pages, statuses and filters: an index may take another path when a term has
  // more matches than the limit (MariaDB's large organisations), and a page past the end counts on its own.
  { countLimit: 4, sort: "last_name", order: "asc", offset: 5, limit: 7 },
  { countLimit: 4, offset: 30, limit: 5 },
  { countLimit: 4, status: "all" },
  { countLimit: 0 },
  { countLimit: 1000, offset: 20, limit: 10 },
  { countLimit: 4, createdFrom: new Date(T0 + 20 * 60_000) },
  { createdFrom: new Date(T0 + 20 * 60_000), createdBefore: new Date(T0 + 60 * 60_000) },
  { updatedFrom: new Date(T0 + 40 * 60_000), status: "all", limit: 3 },
];

/**
 * 240 patients in organisation 1, 60 in organisation 2, seeded so every run holds the same data; created
 * in groups of three at the same instant, so the id tiebreak decides the order within a group.
 */
export function searchCaseRecords(): PatientRecord[] {
  const rnd = createPrng(7);
  return Array.from({ length: 300 }, (_, i) =>
    toPatientRecord(patientFromDraft(draftFor(i, rnd), i < 240 ? 1 : 2, new Date(T0 + Math.floor(i / 3) * 60_000))),
  );
}

type ListAnswer = { patients: unknown[]; total: number };

/**
 * Every case (2 organisations × SEARCH_CASE_TERMS × SEARCH_CASE_VARIANTS): the engine's search index
 * (`index`, rows as stored) and the repository (`repository`, which takes the index path) must both answer
 * exactly as `scan`, the shared LIKE scan. Most cases have rows, so agreement on empty answers cannot pass alone.
 */
export async function expectSearchIndexAsScan(
  scan: (c: PatientListCriteria) => Promise<ListAnswer>,
  index: (c: PatientListCriteria) => Promise<{ rows: Array<Selectable<PatientsTable>>; total: number } | undefined>,
  repository: (c: PatientListCriteria) => Promise<ListAnswer>,
) {
  let compared = 0;
  let withRows = 0;
  for (const org of [1, 2])
    for (const term of SEARCH_CASE_TERMS)
      for (const more of SEARCH_CASE_VARIANTS) {
        const c = searchCaseCriteria(org, term, more);
        const expected = await scan(c);
        const got = await index(c);
        const label = `org ${org}, "${term}", ${JSON.stringify(more)}`;
        expect(got, label).toBeDefined();
        expect({ patients: got?.rows.map(rowToPatient), total: got?.total }, label).toEqual(expected);
        expect(await repository(c), label).toEqual(expected);
        compared++;
        if (expected.patients.length > 0) withRows++;
      }
  expect(compared).toBe(2 * SEARCH_CASE_TERMS.length * SEARCH_CASE_VARIANTS.length);
  expect(withRows / compared).toBeGreaterThan(0.5);
}

/** Organisations `organisations` and the 300 patients of searchCaseRecords, registered through `storage`. */
export async function seedSearchCases(db: Kysely<Database>, storage: Storage, organisations = [1, 2]) {
  const now = new Date(T0).toISOString();
  for (const id of organisations)
    await db
      .insertInto("organisations")
      .values({ id, name: `Org ${id}`, plan: "enterprise", is_active: 1, created_at: now, updated_at: now })
      .execute();
  for (const record of searchCaseRecords()) await storage.repositories.patients.insertIfAbsent(record);
}

/** `index` against the shared scan, called alone and through a storage whose `profile` answers searches with it. */
export async function expectProfileSearchAsScan(
  db: Kysely<Database>,
  profile: SqlDialectProfile,
  index: PatientSearchIndex,
  scan: (c: PatientListCriteria) => Promise<ListAnswer>,
) {
  const storage = new KyselyStorage({ db, profile: { ...profile, patientSearch: index }, ownsConnection: false });
  await expectSearchIndexAsScan(
    scan,
    (c) => index.list(db, c),
    (c) => storage.repositories.patients.list(c),
  );
}

/** A Kysely on `dialect` and the SQL of every statement it has sent (empty `sent` to start again). */
export function recordingKysely(dialect: Dialect) {
  const sent: string[] = [];
  const db = new Kysely<Database>({
    dialect,
    log: (event) => {
      if (event.level === "query") sent.push(event.query.sql);
    },
  });
  return { db, sent };
}
