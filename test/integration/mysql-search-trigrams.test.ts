import { patientFromDraft, toPatientRecord, type Storage } from "@openpractice/core";
import { KyselyStorage, rowToPatient, type Database } from "@openpractice/kysely";
import {
  createMysqlStorage,
  MAX_SEARCH_TRIGRAMS,
  mysqlProfile,
  patientSearchTrigramsMigration,
  rebuildPatientSearchTrigrams,
  searchTrigrams,
  trigramPatientSearch,
  trigramPatientSearchWith,
  TRIGRAM_TABLE,
} from "@openpractice/mysql";
import { Kysely, MysqlDialect, sql } from "kysely";
import { createPool } from "mysql2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines, freshDatabase } from "../support/engines.js";
import {
  expectProfileSearchAsScan,
  expectSearchIndexAsScan,
  recordingKysely,
  searchCaseCriteria as criteria,
  seedSearchCases,
} from "../support/patient-search-cases.js";

// MySQL/MariaDB patient search reads candidates from the trigram side table that triggers keep
// (adapters/mysql/src/patient-search-trigrams.ts, migration 032). Its answers must be those of the shared
// LIKE scan, row for row and count for count, for every filter, order and page.
const engines = availableEngines();

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
    await seedSearchCases(db, indexed);
  }, 120_000);

  afterAll(async () => {
    await indexed?.close();
    await db?.destroy();
    await drop?.();
  });

  it("answers exactly as the LIKE scan for every term, filter, order, page and count limit", async () => {
    await expectSearchIndexAsScan(
      (c) => scan.repositories.patients.list(c),
      (c) => trigramPatientSearch.list(db, c),
      (c) => indexed.repositories.patients.list(c),
    );
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

  it("counts with the page in one statement, and alone only for a page past the last match", async () => {
    const { db: observed, sent } = recordingKysely(new MysqlDialect({ pool }));
    const search = async (more: Parameters<typeof criteria>[2]) => {
      sent.length = 0;
      const c = criteria(1, "ample.org", { status: "all", ...more });
      const [got, expected] = await Promise.all([
        trigramPatientSearch.list(observed, c),
        scan.repositories.patients.list(c),
      ]);
      expect({ patients: got?.rows.map(rowToPatient), total: got?.total }).toEqual(expected);
      return { rows: got?.rows.length, total: got?.total, statements: sent.length };
    };
    const all = (await scan.repositories.patients.list(criteria(1, "ample.org", { status: "all", limit: 1000 }))).total;
    expect(all).toBeGreaterThan(30);
    expect(await search({ limit: 10 })).toEqual({ rows: 10, total: all, statements: 1 });
    expect(await search({ limit: 10, offset: all - 3 })).toEqual({ rows: 3, total: all, statements: 1 });
    // With every status a page cannot be walked: the count limit changes nothing but the answer's bound.
    expect(await search({ limit: 10, countLimit: 20 })).toEqual({ rows: 10, total: 21, statements: 1 });
    expect(await search({ limit: 10, countLimit: all })).toEqual({ rows: 10, total: all, statements: 1 });
    // Past the end no row carries the count: a second statement counts, bounded as asked.
    expect(await search({ limit: 10, offset: all + 5 })).toEqual({ rows: 0, total: all, statements: 2 });
    expect(await search({ limit: 10, offset: all + 5, countLimit: 20 })).toEqual({ rows: 0, total: 21, statements: 2 });
  });

  it("in a large organisation counts only up to the limit, and then looks for the page among the first rows in list order", async () => {
    // Every organisation counts as large here, and the window is small: both the walked page and the hand-over to
    // the sorted candidates (a window with fewer matches than the page) are compared with the shared scan.
    const walking = trigramPatientSearchWith({ walkFromPatients: 0, walkRows: 40 });
    await expectProfileSearchAsScan(db, mysqlProfile, walking, (c) => scan.repositories.patients.list(c));
    const { db: observed, sent } = recordingKysely(new MysqlDialect({ pool }));
    const keptSize = (s: string) => s.includes("patient_counts");
    const boundedMatches = (s: string) => s.includes("as `m`") && /over\s*\(\)/.test(s);
    const everyMatch = (s: string) => /over\s*\(\)/.test(s) && !boundedMatches(s);
    const walkedWindow = (s: string) => s.includes("as `w`");
    const boundedCount = (s: string) => s.includes("as `m`") && !/over\s*\(\)/.test(s);
    const sortedCandidates = (s: string) =>
      s.includes(TRIGRAM_TABLE) && !boundedMatches(s) && !boundedCount(s) && !everyMatch(s) && !keptSize(s);
    const listed = async (index: typeof walking, search: string, more: Parameters<typeof criteria>[2]) => {
      sent.length = 0;
      const c = criteria(1, search, more);
      const got = await index.list(observed, c);
      expect({ patients: got?.rows.map(rowToPatient), total: got?.total }).toEqual(
        await scan.repositories.patients.list(c),
      );
      return {
        total: got?.total,
        kept: sent.filter(keptSize).length,
        bounded: sent.filter(boundedMatches).length,
        every: sent.filter(everyMatch).length,
        walked: sent.filter(walkedWindow).length,
        sorted: sent.filter(sortedCandidates).length,
        counted: sent.filter(boundedCount).length,
      };
    };
    const steps = { kept: 1, bounded: 1, every: 0, counted: 0 };
    // Within the limit: one statement after the size, page and count exact.
    expect(await listed(walking, "ample.org", { countLimit: 1000 })).toMatchObject({ ...steps, walked: 0, sorted: 0 });
    // Over it: the page from the window alone; no statement reads every match.
    expect(await listed(walking, "ample.org", { countLimit: 4 })).toEqual({ total: 5, ...steps, walked: 1, sorted: 0 });
    // Over it, and the window holds fewer than a page: the candidates are sorted after all.
    expect(await listed(walking, "ample.org", { countLimit: 4, limit: 40 })).toEqual({
      total: 5,
      ...steps,
      walked: 1,
      sorted: 1,
    });
    // A page past the last match: the bounded matches counted on their own.
    expect(await listed(walking, "_121@", { countLimit: 4, offset: 30, limit: 5 })).toEqual({
      total: 1,
      ...steps,
      walked: 0,
      sorted: 0,
      counted: 1,
    });
    // A page that cannot be walked (every status): one statement reads every match, as in a small organisation.
    expect(await listed(walking, "ample.org", { countLimit: 4, status: "all" })).toEqual({
      total: 5,
      kept: 0,
      bounded: 0,
      every: 1,
      walked: 0,
      sorted: 0,
      counted: 0,
    });
    // Below the size (organisation 1 has 200 active patients), every match is read and counted, then bounded.
    const small = trigramPatientSearchWith({ walkFromPatients: 201, walkRows: 40 });
    expect(await listed(small, "ample.org", { countLimit: 4 })).toEqual({
      total: 5,
      kept: 1,
      bounded: 0,
      every: 1,
      walked: 0,
      sorted: 0,
      counted: 0,
    });
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
