import {
  patientFromDraft,
  searchTerms,
  toPatientRecord,
  type PatientDraft,
  type PatientListCriteria,
  type Storage,
} from "@openpractice/core";
import { KyselyStorage, rowToPatient, type Database } from "@openpractice/kysely";
import {
  createMysqlStorage,
  MAX_SEARCH_TRIGRAMS,
  mysqlProfile,
  patientSearchTrigramsMigration,
  rebuildPatientSearchTrigrams,
  searchTrigrams,
  trigramPatientSearch,
} from "@openpractice/mysql";
import { Kysely, MysqlDialect, sql } from "kysely";
import { createPool } from "mysql2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrng, type Prng } from "../fuzz/prng.js";
import { availableEngines, freshDatabase } from "../support/engines.js";

// MySQL/MariaDB patient search reads candidates from the trigram side table that triggers keep
// (adapters/mysql/src/patient-search-trigrams.ts, migration 032). Its answers must be those of the shared
// LIKE scan, row for row and count for count, for every filter, order and page.
const engines = availableEngines();

const FIRST = ["Renée", "José", "Olivia", "Priya", "Łukasz", "Zoë", "Noah", "Ὀδυσσεύς", "Amélie", "Kenji"];
const LAST = ["Müller", "Núñez", "Søndergaard", "Kowalski", "Tanaka", "O'Brien", "カナコ", "Dubois", "Mueller", "Lee"];
const T0 = Date.UTC(2026, 0, 1);

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

const criteria = (
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

/** Every distinct trigram of a search text, by code point (what the trigger stores for it). */
const trigramsOfText = (text: string) => {
  const chars = [...text];
  return [...new Set(chars.slice(2).map((_, i) => chars.slice(i, i + 3).join("")))].sort();
};

describe.runIf(engines.includes("mysql"))("[mysql] patient search from the trigram table", () => {
  let drop: () => Promise<void>;
  let pool: ReturnType<typeof createPool>;
  let db: Kysely<Database>;
  let indexed: Storage;
  let scan: KyselyStorage;

  const trigramRowsOf = async (patientId: number) =>
    (
      await sql<{
        organisation_id: number;
        trigram: string;
      }>`select organisation_id, trigram from patient_search_trigrams
        where patient_id = ${patientId} order by trigram`.execute(db)
    ).rows;

  const searchTextOf = async (id: number) =>
    (await db.selectFrom("patients").select("search_text").where("id", "=", id).executeTakeFirstOrThrow()).search_text;

  beforeAll(async () => {
    const fresh = await freshDatabase("mysql");
    drop = fresh.drop;
    pool = createPool({
      uri: fresh.url,
      charset: "utf8mb4",
      timezone: "Z",
      supportBigNumbers: true,
      bigNumberStrings: false,
    });
    db = new Kysely<Database>({ dialect: new MysqlDialect({ pool }) });
    indexed = await createMysqlStorage({ pool });
    // The shared LIKE scan on the same database: the MySQL profile without its search index.
    const { patientSearch: _index, ...withoutSearchIndex } = mysqlProfile;
    scan = new KyselyStorage({ db, profile: withoutSearchIndex, ownsConnection: false });
    const now = new Date(T0).toISOString();
    for (const id of [1, 2])
      await db
        .insertInto("organisations")
        .values({ id, name: `Org ${id}`, plan: "enterprise", is_active: 1, created_at: now, updated_at: now })
        .execute();
    // Seeded, so every run inserts and searches the same data.
    const rnd = createPrng(7);
    // 240 patients in organisation 1, 60 in organisation 2; created in groups of three at the same instant,
    // so the id tiebreak decides the order within a group.
    for (let i = 0; i < 300; i++) {
      const org = i < 240 ? 1 : 2;
      const at = new Date(T0 + Math.floor(i / 3) * 60_000);
      const record = toPatientRecord(patientFromDraft(draftFor(i, rnd), org, at));
      await indexed.repositories.patients.insertIfAbsent(record);
    }
  }, 120_000);

  afterAll(async () => {
    await indexed?.close();
    await db?.destroy();
    await drop?.();
  });

  it("answers exactly as the LIKE scan for every term, filter, order, page and count limit", async () => {
    const terms = [
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
    const variants: Array<Partial<PatientListCriteria>> = [
      {},
      { status: "all" },
      { status: "inactive" },
      { sort: "last_name", order: "asc" },
      { sort: "first_name", order: "desc", status: "all" },
      { sort: "updated_at", order: "asc", limit: 7, offset: 7 },
      { order: "asc", limit: 5, offset: 20 },
      { countLimit: 4 },
      { countLimit: 1000, status: "all" },
      { createdFrom: new Date(T0 + 20 * 60_000), createdBefore: new Date(T0 + 60 * 60_000) },
      { updatedFrom: new Date(T0 + 40 * 60_000), status: "all", limit: 3 },
    ];
    let compared = 0;
    let withRows = 0;
    for (const org of [1, 2])
      for (const term of terms)
        for (const more of variants) {
          const c = criteria(org, term, more);
          const expected = await scan.repositories.patients.list(c);
          const got = await trigramPatientSearch.list(db, c);
          const label = `org ${org}, "${term}", ${JSON.stringify(more)}`;
          expect(got, label).toBeDefined();
          expect({ patients: got?.rows.map(rowToPatient), total: got?.total }, label).toEqual(expected);
          // The repository itself takes the index path and answers the same.
          expect(await indexed.repositories.patients.list(c), label).toEqual(expected);
          compared++;
          if (expected.patients.length > 0) withRows++;
        }
    expect(compared).toBe(2 * terms.length * variants.length);
    // Most comparisons have rows to compare, so an empty answer on both sides cannot pass for agreement.
    expect(withRows / compared).toBeGreaterThan(0.5);
    // The collation cases above do match (the index must not miss them).
    expect((await scan.repositories.patients.list(criteria(1, "かなこ", { status: "all" }))).total).toBeGreaterThan(0);
    expect((await scan.repositories.patients.list(criteria(1, "οδυσσευσ", { status: "all" }))).total).toBeGreaterThan(
      0,
    );
  }, 120_000);

  it("hands terms under 3 characters back to the scan, which answers them", async () => {
    const c = criteria(1, "ko");
    expect(await trigramPatientSearch.list(db, c)).toBeUndefined();
    expect(await trigramPatientSearch.list(db, criteria(1, "kowal 55"))).toBeUndefined();
    const listed = await indexed.repositories.patients.list(c);
    expect(listed).toEqual(await scan.repositories.patients.list(c));
    expect(listed.total).toBeGreaterThan(0);
  });

  it("stores every trigram of a new patient, in its organisation, in the same transaction", async () => {
    const record = toPatientRecord(
      patientFromDraft(
        { firstName: "Trina", lastName: "Gramm", dateOfBirth: "1990-02-03", phone: "555 010 2030" },
        2,
        new Date(),
      ),
    );
    const { patient } = await indexed.repositories.patients.insertIfAbsent(record);
    const rows = await trigramRowsOf(patient.id);
    expect(rows.every((r) => Number(r.organisation_id) === 2)).toBe(true);
    expect(rows.map((r) => r.trigram).sort()).toEqual(trigramsOfText(record.searchText));
    expect(record.searchText).toBe("trina gramm 5550102030");

    // A rolled-back registration leaves no trigram behind.
    const conn = await pool.promise().getConnection();
    try {
      await conn.query("begin");
      await conn.query(
        `insert into patients (organisation_id, first_name, last_name, date_of_birth, sex, status, identity_key, search_text, first_name_sort, last_name_sort, created_at, updated_at)
         values (2, 'Roll', 'Back', '1990-01-01', 'OTHER', 'active', 'roll|back|1990-01-01', 'roll back qqqzzz', 'roll', 'back', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`,
      );
      const [inside] = await conn.query(
        "select count(*) as n from patient_search_trigrams where organisation_id = 2 and trigram = 'qqz'",
      );
      expect(Number((inside as Array<{ n: number }>)[0]?.n)).toBe(1);
      await conn.query("rollback");
    } finally {
      conn.release();
    }
    const after = await sql<{
      n: number;
    }>`select count(*) as n from patient_search_trigrams where trigram = 'qqz'`.execute(db);
    expect(Number(after.rows[0]?.n)).toBe(0);
  });

  it("follows a change of name, email and phone: the old trigrams go, the new ones come", async () => {
    const created = toPatientRecord(
      patientFromDraft(
        {
          firstName: "Oldfirst",
          lastName: "Oldlast",
          dateOfBirth: "1980-05-05",
          email: "old@mail.test",
          phone: "111 222 3333",
        },
        1,
        new Date(),
      ),
    );
    const { patient } = await indexed.repositories.patients.insertIfAbsent(created);
    expect((await indexed.repositories.patients.list(criteria(1, "oldla"))).patients.map((p) => p.id)).toEqual([
      patient.id,
    ]);

    const { id: _id, ...current } = patient;
    const changed = toPatientRecord({
      ...current,
      firstName: "Newfirst",
      lastName: "Newlast",
      email: "new@post.test",
      phone: "999 888 7777",
    });
    expect((await indexed.repositories.patients.replace(patient.id, changed)).outcome).toBe("updated");
    const text = await searchTextOf(patient.id);
    expect(text).toBe("newfirst newlast new@post.test 9998887777");
    expect((await trigramRowsOf(patient.id)).map((r) => r.trigram).sort()).toEqual(trigramsOfText(text));
    for (const gone of ["oldla", "old@mail", "2223333"])
      expect((await indexed.repositories.patients.list(criteria(1, gone, { status: "all" }))).total, gone).toBe(0);
    for (const found of ["newla", "post.test", "8887777"])
      expect(
        (await indexed.repositories.patients.list(criteria(1, found))).patients.map((p) => p.id),
        found,
      ).toEqual([patient.id]);

    // A change outside the search text (the address) leaves the trigrams as they are.
    const before = await trigramRowsOf(patient.id);
    const moved = toPatientRecord({ ...current, ...changed, address: { ...current.address, city: "Elsewhere" } });
    expect((await indexed.repositories.patients.replace(patient.id, moved)).outcome).toBe("updated");
    expect(await trigramRowsOf(patient.id)).toEqual(before);
  });

  it("drops a deleted patient's trigrams", async () => {
    // The application never deletes patients; the trigger keeps the table right for a deletion by hand.
    const { patient } = await indexed.repositories.patients.insertIfAbsent(
      toPatientRecord(
        patientFromDraft({ firstName: "Dele", lastName: "Tedd", dateOfBirth: "1970-07-07" }, 1, new Date()),
      ),
    );
    expect((await trigramRowsOf(patient.id)).length).toBeGreaterThan(0);
    await db.deleteFrom("patients").where("id", "=", patient.id).execute();
    expect(await trigramRowsOf(patient.id)).toEqual([]);
  });

  it("rebuilds the same rows set-based as the triggers wrote one by one (the migration's backfill)", async () => {
    const all = async () =>
      (
        await sql`select organisation_id, trigram, patient_id from patient_search_trigrams
          order by organisation_id, trigram, patient_id`.execute(db)
      ).rows;
    const byTriggers = await all();
    expect(byTriggers.length).toBeGreaterThan(300 * 20);
    await patientSearchTrigramsMigration.down(db);
    const tables = await sql`select table_name from information_schema.tables
      where table_schema = database() and table_name = 'patient_search_trigrams'`.execute(db);
    expect(tables.rows).toEqual([]);
    await patientSearchTrigramsMigration.up(db);
    expect(await all()).toEqual(byTriggers);
    await sql`delete from patient_search_trigrams`.execute(db);
    await rebuildPatientSearchTrigrams(db);
    expect(await all()).toEqual(byTriggers);
  });
});

describe("searchTrigrams (which trigrams a MySQL search looks up)", () => {
  it("takes every third trigram of a term and its last, by code point", () => {
    expect(searchTrigrams(["olivia.tanaka"])).toEqual(["oli", "via", ".ta", "nak", "aka"]);
    expect(searchTrigrams(["renée"])).toEqual(["ren", "née"]);
    expect(searchTrigrams(["𝒜bc𝒟"])).toEqual(["𝒜bc", "bc𝒟"]);
  });

  it("represents every term within the cap, without repeats", () => {
    const picked = searchTrigrams(["olivia.tanaka", "kowalski", "kowal", "0142"]);
    expect(picked).toHaveLength(MAX_SEARCH_TRIGRAMS);
    expect(picked.slice(0, 3)).toEqual(["oli", "kow", "014"]);
    expect(new Set(picked).size).toBe(picked.length);
  });
});
