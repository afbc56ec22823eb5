// The vendor-scale fixture on MySQL 8 / MariaDB: the shape and rows of tenant-fixture.mjs (the same generator,
// the application's own derivations) in a database of their own on the server of a mysql:// URL.
//
//   DATABASE_URL=mysql://… node test/bench/tenant-fixture-mysql.mjs
//
// Env: as tenant-fixture.mjs (SCALE_ORGANISATIONS 100, SCALE_PATIENTS 1,000,000, SCALE_SEED, SCALE_LARGE).
//
// The rows go in 2,000 per multi-row INSERT, one statement in flight while the next batch is generated. The
// trigram side table and its triggers (migration 032) are taken out for the load and put back by that migration's
// own up(), whose backfill derives every patient's trigrams set-based: the same definition the triggers use, so the
// side table is what the application would have written row by row. The database is named after the shape
// (opscale_<organisations>_<patients>_<seed>) and reused when complete.
import { patientSearchTrigramsMigration } from "@openpractice/mysql";
import { Kysely, MysqlDialect } from "kysely";
import mysql from "mysql2";
import { serverStorage, withDatabase } from "./fixture-server.mjs";
import { buildAndVerify, databaseName, organisationSizes, phaseLog, tenantRows } from "./tenant-fixture.mjs";

const BATCH = 2_000;

/** A promise-style connection of mysql2 with the settings of the adapter's pool (UTC, big numbers as numbers). */
export function mysqlConnection(url) {
  return mysql
    .createConnection({ uri: url, charset: "utf8mb4", timezone: "Z", supportBigNumbers: true, dateStrings: false })
    .promise();
}

/**
 * Loads the shape into its own database (made and migrated by the real adapter)
 * unless a complete copy is there already. Resolves to { url, sizes, reused, seconds, phases }.
 */
export async function buildTenantFixtureMysql(baseUrl, shape, log = console.log) {
  const name = databaseName(shape);
  const url = withDatabase(baseUrl, name);
  const sizes = organisationSizes(shape);
  const admin = await mysqlConnection(baseUrl);
  try {
    const [dbs] = await admin.query("select 1 from information_schema.schemata where schema_name = ?", [name]);
    if (dbs.length > 0) {
      const [done] = await admin.query(
        "select 1 from information_schema.tables where table_schema = ? and table_name = 'opscale_fixture'",
        [name],
      );
      if (done.length > 0) return { url, sizes, reused: true, seconds: 0, phases: {} };
      await admin.query(`drop database ${name}`);
    }
    await admin.query(`create database ${name} character set utf8mb4 collate utf8mb4_unicode_ci`);
  } finally {
    await admin.end();
  }

  const started = performance.now();
  const { phases, phase } = phaseLog(log);
  let t0 = performance.now();
  await (await serverStorage(url, 1)).close();
  phase("migrate", t0);

  const pool = mysql.createPool({ uri: url, charset: "utf8mb4", timezone: "Z", connectionLimit: 2 });
  const db = new Kysely({ dialect: new MysqlDialect({ pool }) });
  const conn = await mysqlConnection(url);
  try {
    const now = new Date().toISOString();
    await conn.query("insert into organisations (id, name, plan, is_active, created_at, updated_at) values ?", [
      Array.from({ length: shape.organisations }, (_, i) => [
        i + 1,
        `Scale Clinic ${i + 1}`,
        "enterprise",
        1,
        now,
        now,
      ]),
    ]);
    t0 = performance.now();
    await patientSearchTrigramsMigration.down(db);
    phase("trigram table and triggers out", t0);

    t0 = performance.now();
    let columns;
    let batch = [];
    let pending = Promise.resolve();
    let loaded = 0;
    const flush = async () => {
      const values = batch;
      batch = [];
      await pending;
      pending = conn.query(`insert into patients (${columns.join(", ")}) values ?`, [values]).then(() => {
        loaded += values.length;
        if (loaded % 250_000 < BATCH) log(`  ${loaded} rows`);
      });
    };
    for (const row of tenantRows(shape, sizes)) {
      columns ??= Object.keys(row);
      batch.push(columns.map((c) => row[c] ?? null));
      if (batch.length === BATCH) await flush();
    }
    if (batch.length > 0) await flush();
    await pending;
    phase("rows", t0);

    t0 = performance.now();
    await patientSearchTrigramsMigration.up(db);
    phase("trigram table, triggers and backfill (migration 032 up)", t0);
    t0 = performance.now();
    await conn.query("analyze table organisations, patients, patient_search_trigrams");
    phase("analyze", t0);
    await conn.query(
      "create table opscale_fixture as select ? as organisations, ? as patients, ? as seed, now() as loaded_at",
      [shape.organisations, shape.patients, shape.seed],
    );
  } finally {
    await conn.end();
    await db.destroy();
  }
  return { url, sizes, reused: false, seconds: (performance.now() - started) / 1000, phases };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (!process.env.DATABASE_URL?.startsWith("mysql://")) throw new Error("DATABASE_URL must be a mysql:// URL");
  await buildAndVerify(buildTenantFixtureMysql, process.env.DATABASE_URL);
}
