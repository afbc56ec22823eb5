import type { Storage } from "@openpractice/core";
import { KyselyStorage, type Database } from "@openpractice/kysely";
import { createMysqlStorage, mysqlPatientCountsMigration, mysqlProfile } from "@openpractice/mysql";
import { Kysely, MysqlDialect } from "kysely";
import { createPool } from "mysql2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines, freshDatabase } from "../support/engines.js";
import {
  countsNow,
  expectCountsKeptThroughWrites,
  expectKeptTotalsAsCounted,
  plainPatientInsert,
} from "../support/patient-count-cases.js";
import { searchCaseCriteria as criteria, seedSearchCases } from "../support/patient-search-cases.js";

// MySQL/MariaDB keep patient counts per organisation and status with row triggers (migration 035,
// adapters/mysql/src/patient-counts.ts); the unsearched list's total reads them. They must equal count(*).
const engines = availableEngines();

describe.runIf(engines.includes("mysql"))("[mysql] kept patient counts", () => {
  let drop: () => Promise<void>;
  let pool: ReturnType<typeof createPool>;
  let db: Kysely<Database>;
  let indexed: Storage;
  let shared: KyselyStorage;

  beforeAll(async () => {
    const fresh = await freshDatabase("mysql");
    drop = fresh.drop;
    pool = createPool({ uri: fresh.url, charset: "utf8mb4", timezone: "Z", supportBigNumbers: true });
    db = new Kysely<Database>({ dialect: new MysqlDialect({ pool }) });
    indexed = await createMysqlStorage({ pool });
    // The shared SQL on the same database: the MySQL profile without its kept counts.
    const { patientCounts: _counts, ...sharedProfile } = mysqlProfile;
    shared = new KyselyStorage({ db, profile: sharedProfile, ownsConnection: false });
    await seedSearchCases(db, indexed, [1, 2, 3]);
  }, 120_000);

  afterAll(async () => {
    await indexed?.close();
    await db?.destroy();
    await drop?.();
  });

  it("keeps the counts exact through inserts, status changes, deletes and rollbacks, from many connections at once", async () => {
    await expectCountsKeptThroughWrites(db, async (work) => {
      const conn = await pool.promise().getConnection();
      try {
        await work((statement) => conn.query(statement));
      } finally {
        conn.release();
      }
    });
  });

  it("answers the unsearched list's total from the kept counts, the same as counting", async () => {
    await expectKeptTotalsAsCounted(db, shared, indexed);
  });

  it("moves a patient's count when an update changes its organisation or status, and only then", async () => {
    await pool.promise().query(plainPatientInsert(3, "mover"));
    const before = (await countsNow(db)).kept;
    await db.updateTable("patients").set({ first_name: "Mover" }).where("first_name", "=", "mover").execute();
    expect((await countsNow(db)).kept).toEqual(before);
    await db
      .updateTable("patients")
      .set({ organisation_id: 1, status: "inactive" })
      .where("first_name", "=", "Mover")
      .execute();
    const after = await countsNow(db);
    expect(after.kept).toEqual(after.counted);
    expect(after.kept["1/inactive"]).toBe((before["1/inactive"] ?? 0) + 1);
    expect(after.kept["3/active"] ?? 0).toBe((before["3/active"] ?? 0) - 1);
  });

  it("migrates down and up again: the backfill counts what is there, once, with the triggers on", async () => {
    const c = criteria(2, "", { status: "all" });
    const before = await indexed.repositories.patients.list(c);
    await mysqlPatientCountsMigration.down(db);
    // Written while no trigger counts: the backfill must find it.
    await pool.promise().query(plainPatientInsert(2, "uncounted"));
    await mysqlPatientCountsMigration.up(db);
    const { counted, kept } = await countsNow(db);
    expect(kept).toEqual(counted);
    expect((await indexed.repositories.patients.list(c)).total).toBe(before.total + 1);
    // And after the backfill the triggers count again.
    await pool.promise().query(plainPatientInsert(2, "counted"));
    expect((await countsNow(db)).kept["2/active"]).toBe((await countsNow(db)).counted["2/active"]);
  });
});
