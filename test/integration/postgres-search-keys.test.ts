import { patientFromDraft, toPatientRecord, type Storage } from "@openpractice/core";
import { KyselyStorage, type Database } from "@openpractice/kysely";
import {
  createPostgresStorage,
  keyedPatientSearch,
  keyedPatientSearchWith,
  patientCountsMigration,
  patientSearchKeysMigration,
  postgresProfile,
} from "@openpractice/postgres";
import { Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines, freshDatabase } from "../support/engines.js";
import { countsNow, expectCountsKeptThroughWrites, expectKeptTotalsAsCounted } from "../support/patient-count-cases.js";
import {
  expectProfileSearchAsScan,
  expectSearchIndexAsScan,
  recordingKysely,
  searchCaseCriteria as criteria,
  seedSearchCases,
} from "../support/patient-search-cases.js";

// PostgreSQL patient search reads candidates from search keys scoped to the organisation (migration 033,
// adapters/postgres/src/patient-search-keys.ts), and the unsearched list's total from counts that triggers
// keep (migration 034, patient-counts.ts). Both must answer exactly as the shared SQL does.
const engines = availableEngines();

describe.runIf(engines.includes("postgres"))("[postgres] tenant-scoped search keys and kept counts", () => {
  let drop: () => Promise<void>;
  let pool: pg.Pool;
  let db: Kysely<Database>;
  let indexed: Storage;
  let shared: KyselyStorage;

  beforeAll(async () => {
    const fresh = await freshDatabase("postgres");
    drop = fresh.drop;
    pool = new pg.Pool({ connectionString: fresh.url, max: 10 });
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    indexed = await createPostgresStorage({ url: fresh.url });
    // The shared SQL on the same database: the PostgreSQL profile without its search keys and kept counts.
    const { patientSearch: _keys, patientCounts: _counts, ...sharedProfile } = postgresProfile;
    shared = new KyselyStorage({ db, profile: sharedProfile, ownsConnection: false });
    await seedSearchCases(db, indexed, [1, 2, 3]);
    await sql`analyze patients`.execute(db);
  }, 120_000);

  afterAll(async () => {
    await indexed?.close();
    await db?.destroy();
    await drop?.();
  });

  it("answers every search exactly as the shared LIKE scan, for every filter, order, page and count limit", async () => {
    await expectSearchIndexAsScan(
      (c) => shared.repositories.patients.list(c),
      (c) => keyedPatientSearch.list(db, c),
      (c) => indexed.repositories.patients.list(c),
    );
  }, 120_000);

  it("answers the same when a page is first looked for among the first rows in list order (large organisations)", async () => {
    // Every organisation counts as large here, and the window is small: both the walked page and the hand-over
    // to the keys (a window with fewer matches than the page) are compared.
    const walking = keyedPatientSearchWith({ walkFromPatients: 0, walkRows: 40 });
    await expectProfileSearchAsScan(db, postgresProfile, walking, (c) => shared.repositories.patients.list(c));
    // Both paths ran: a common term's page comes from the window alone, a rare one's from the keys after it.
    const { db: logged, sent: statements } = recordingKysely(new PostgresDialect({ pool }));
    const keyedPage = (sqlText: string) => sqlText.includes("order by") && sqlText.includes("@> patient_search_keys");
    await walking.list(logged, criteria(1, "555"));
    expect(statements.some((s) => s.includes('as "w"'))).toBe(true);
    expect(statements.filter(keyedPage)).toEqual([]);
    statements.length = 0;
    const rare = await walking.list(logged, criteria(1, "_121@"));
    expect(rare?.rows.length).toBeGreaterThan(0);
    expect(statements.some((s) => s.includes('as "w"'))).toBe(true);
    expect(statements.filter(keyedPage)).toHaveLength(1);
  }, 120_000);

  it("leaves a search of short terms only to the shared scan, and uses the keys for the longer terms of a mix", async () => {
    expect(await keyedPatientSearch.list(db, criteria(1, "ko"))).toBeUndefined();
    for (const search of ["ko", "ko 55", "kowal 55"]) {
      const c = criteria(1, search, { status: "all" });
      const listed = await indexed.repositories.patients.list(c);
      expect(listed, search).toEqual(await shared.repositories.patients.list(c));
      expect(listed.total, search).toBeGreaterThan(0);
    }
    expect(await keyedPatientSearch.list(db, criteria(1, "kowal 55"))).toBeDefined();
  });

  it("reads only the organisation's candidates from the index", async () => {
    // Organisation 3 holds two matches for "kowal"; organisations 1 and 2 hold dozens.
    for (const [i, first] of ["Ava", "Ben"].entries())
      await indexed.repositories.patients.insertIfAbsent(
        toPatientRecord(
          patientFromDraft(
            { firstName: first, lastName: "Kowalczyk", dateOfBirth: `1970-01-0${i + 1}` },
            3,
            new Date(),
          ),
        ),
      );
    const elsewhere = await sql<{
      n: string;
    }>`select count(*) as n from patients where organisation_id <> 3 and search_text like '%kowal%'`.execute(db);
    expect(Number(elsewhere.rows[0]?.n)).toBeGreaterThan(20);
    const client = await pool.connect();
    try {
      // On 300 rows a sequential scan is cheaper; forbid it to see what the index itself hands over. No
      // organisation condition: organisation 3's keys alone find its rows and no other organisation's.
      await client.query("set enable_seqscan = off");
      const plan = (
        await client.query(
          `explain (analyze, format json) select id from patients
            where patient_search_keys(organisation_id, search_text) @> patient_search_keys(3, 'kowal')`,
        )
      ).rows[0]["QUERY PLAN"][0].Plan;
      const scan = JSON.stringify(plan).match(/"Index Name":"patients_search_keys_ix"[^}]*?"Actual Rows":(\d+)/);
      expect(scan, JSON.stringify(plan)).not.toBeNull();
      expect(Number(scan?.[1])).toBe(2);
    } finally {
      client.release();
    }
  });

  it("keeps the counts exact through inserts, status changes, deletes and rollbacks, from many connections at once", async () => {
    await expectCountsKeptThroughWrites(db, async (work) => {
      const client = await pool.connect();
      try {
        await work((statement) => client.query(statement));
      } finally {
        client.release();
      }
    });
  });

  it("answers the unsearched list's total from the kept counts, the same as counting", async () => {
    await expectKeptTotalsAsCounted(db, shared, indexed);
  });

  it("migrates down and up again: the keys answer as before and the backfilled counts equal count(*)", async () => {
    const c = criteria(1, "kowal", { status: "all" });
    const before = await indexed.repositories.patients.list(c);
    await patientCountsMigration.down(db);
    await patientSearchKeysMigration.down(db);
    const indexes = await sql<{
      indexname: string;
    }>`select indexname from pg_indexes where tablename = 'patients' and indexname like 'patients_search%'`.execute(db);
    expect(indexes.rows.map((r) => r.indexname)).toEqual(["patients_search_trgm_ix"]);
    const settings = async () =>
      (
        await sql<{
          reloptions: string[] | null;
        }>`select reloptions from pg_class where relname = 'patients_search_keys_ix'`.execute(db)
      ).rows[0]?.reloptions;
    // The migrator runs each migration in a transaction; so does this (the counts' backfill locks patients).
    await db.transaction().execute(async (tx) => {
      await patientSearchKeysMigration.up(tx);
      await patientCountsMigration.up(tx);
    });
    expect(await indexed.repositories.patients.list(c)).toEqual(before);
    expect(await settings()).toEqual(["gin_pending_list_limit=512"]);
    const { counted, kept } = await countsNow(db);
    expect(kept).toEqual(counted);
    await sql`truncate patients cascade`.execute(db);
    expect((await countsNow(db)).kept).toEqual({});
  });
});
