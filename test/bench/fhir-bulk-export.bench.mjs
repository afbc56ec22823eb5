// FHIR Bulk Data export (docs/fhir.md, issue 51): exporting BENCH_PATIENTS (100,000) patients with their
// appointments (BENCH_APPOINTMENTS_PER_PATIENT, 2) as `Patient/$export?_type=Patient,Appointment`, run by the real
// background worker (startBackgroundWork) in this process: keyset pages through the SQL adapter, each resource drawn
// by core's FHIR functions, NDJSON sealed (AES-256-GCM) into a filesystem document store. Reports resources per
// second (goal: 5,000 on PostgreSQL) and the process's RSS growth while it runs (goal: under 64 MiB), against a
// baseline run in the same process: the same keyset statements straight through the driver, each row written as
// one JSON line to a plain file (no drawing, no sealing). Then reads every file back and checks the counts.
//
//   DATABASE_URL=postgres://… node test/bench/fhir-bulk-export.bench.mjs   (or npm run bench:fhir-export:postgres)
//   node test/bench/fhir-bulk-export.bench.mjs                             SQLite (a temp file)
//
// Exits 1 when the export does not finish or a count is off.
import { createWriteStream } from "node:fs";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { createPractice } from "@openpractice/core";
import { FileSystemDocumentStore } from "@openpractice/files";
import { openStorage } from "@openpractice/runtime";
import { testPracticeKeys } from "@openpractice/testing";
import { startBackgroundWork } from "@openpractice/worker";
import { buildFixture } from "./fixture.mjs";
import { buildServerFixture, dropServerDatabases, engineOf, serverVersion, withConnection } from "./fixture-server.mjs";
import { intEnv, machineLine, runBenchmark, temp } from "./harness.mjs";

const PATIENTS = intEnv("BENCH_PATIENTS", 100_000);
const PER_PATIENT = intEnv("BENCH_APPOINTMENTS_PER_PATIENT", 2);
const PAGE = 1000;
const MIB = 1024 * 1024;
const PRINCIPAL = {
  organisationId: 1,
  userId: 101,
  name: "Bench",
  clientId: "opc_bench",
  scopes: ["read"],
  clinicIds: [],
  roles: [],
};

/** The appointment rows: PER_PATIENT per patient, a week apart, half of them checked out. */
function* appointmentRows(patientIds, clinicId) {
  const now = new Date().toISOString();
  const base = Date.UTC(2026, 0, 5, 15);
  let n = 0;
  for (const patientId of patientIds)
    for (let k = 0; k < PER_PATIENT; k++, n++) {
      const starts = new Date(base + (n % 5000) * 3_600_000 + k * 7 * 86_400_000);
      yield {
        organisation_id: 1,
        patient_id: patientId,
        doctor_id: 101,
        clinic_id: clinicId,
        starts_at: starts.toISOString(),
        ends_at: new Date(starts.getTime() + 1_800_000).toISOString(),
        payment_mode: "SELF_PAY",
        status: n % 2 ? "CHECKED_OUT" : "SCHEDULED",
        created_at: now,
        updated_at: now,
        version: 1,
      };
    }
}

/** Loads the appointments through the engine's own driver, 1,000 rows a statement, in one transaction. */
async function loadAppointments(url, clinicId) {
  if (engineOf(url) === "sqlite") {
    const db = new BetterSqlite3(url.replace(/^sqlite:/, ""));
    const ids = db.prepare("select id from patients where organisation_id = 1 order by id").pluck().all();
    let insert;
    db.transaction(() => {
      for (const row of appointmentRows(ids, clinicId)) {
        insert ??= db.prepare(
          `insert into appointments (${Object.keys(row).join(", ")}) values (${Object.keys(row).map((k) => `@${k}`)})`,
        );
        insert.run(row);
      }
    })();
    db.close();
    return ids.length * PER_PATIENT;
  }
  const postgres = engineOf(url) === "postgres";
  return withConnection(url, async (q) => {
    const ids = (await q("select id from patients where organisation_id = 1 order by id")).map((r) => Number(r.id));
    await q("begin");
    let columns;
    let batch = [];
    const flush = async () => {
      if (batch.length === 0) return;
      if (postgres) {
        const tuples = batch.map((_, r) => `(${columns.map((_, c) => `$${r * columns.length + c + 1}`).join(", ")})`);
        await q(`insert into appointments (${columns.join(", ")}) values ${tuples.join(", ")}`, batch.flat());
      } else await q(`insert into appointments (${columns.join(", ")}) values ?`, [batch]);
      batch = [];
    };
    for (const row of appointmentRows(ids, clinicId)) {
      columns ??= Object.keys(row);
      batch.push(columns.map((c) => row[c]));
      if (batch.length === PAGE) await flush();
    }
    await flush();
    await q("commit");
    await q(postgres ? "vacuum analyze appointments" : "analyze table appointments");
    return ids.length * PER_PATIENT;
  });
}

/** The baseline: the same keyset statements through the driver, each row one JSON line in a plain file. */
async function driverExport(url) {
  const out = createWriteStream(join(temp, "baseline.ndjson"));
  const write = (line) => (out.write(line) ? undefined : new Promise((resolve) => out.once("drain", resolve)));
  let rows = 0;
  const walk = async (query, table) => {
    let after = 0;
    for (;;) {
      const page = await query(
        `select * from ${table} where organisation_id = 1 and id > ${Number(after)} order by id limit ${PAGE}`,
      );
      for (const row of page) await write(`${JSON.stringify(row)}\n`);
      rows += page.length;
      if (page.length < PAGE) return;
      after = page[page.length - 1].id;
    }
  };
  if (engineOf(url) === "sqlite") {
    const db = new BetterSqlite3(url.replace(/^sqlite:/, ""), { readonly: true });
    const query = async (sql) => db.prepare(sql).all();
    await walk(query, "patients");
    await walk(query, "appointments");
    db.close();
  } else
    await withConnection(url, async (q) => {
      await walk(q, "patients");
      await walk(q, "appointments");
    });
  await new Promise((resolve) => out.end(resolve));
  return rows;
}

async function main() {
  console.log(machineLine());
  const given = process.env.DATABASE_URL;
  const engine = engineOf(given);
  let url = `sqlite:${join(temp, "bulk-export.db")}`;
  const started = performance.now();
  if (engine === "sqlite") await buildFixture(url.slice("sqlite:".length), PATIENTS);
  else url = (await buildServerFixture(given, PATIENTS, { shared: true })).url;
  if (engine !== "sqlite") console.log(await serverVersion(url));
  const storage = await openStorage(url);
  const store = new FileSystemDocumentStore({ directory: join(temp, "store") });
  const practice = createPractice({ storage, keys: testPracticeKeys(), documentStore: store });
  const r = practice.storage.repositories;
  const clinic = await r.organisations.ensureClinic({ organisationId: 1, name: "Main", timeZone: "UTC" });
  await r.organisations.upsertProvider({
    organisationId: 1,
    userId: 101,
    firstName: "Dana",
    lastName: "Reyes",
    npi: null,
    supervisingUserId: null,
    clinicIds: [clinic.id],
  });
  const appointments = await loadAppointments(url, clinic.id);
  const total = PATIENTS + appointments;
  console.log(
    `${engine}: ${PATIENTS} patients and ${appointments} appointments loaded in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  const baseStart = performance.now();
  const baseRows = await driverExport(url);
  const baseSeconds = (performance.now() - baseStart) / 1000;
  if (baseRows !== total) throw new Error(`baseline read ${baseRows} rows, expected ${total}`);

  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
  }, 25);
  const worker = startBackgroundWork(practice, { pollIntervalMs: 20 });
  const exportStart = performance.now();
  const e = await practice.bulkExports.kickOff(PRINCIPAL, {
    kind: "patient",
    types: ["Patient", "Appointment"],
    since: null,
    requestUrl: "http://127.0.0.1/fhir/R4/Patient/$export?_type=Patient,Appointment",
  });
  let status = e;
  while (status.status === "queued" || status.status === "running") {
    await new Promise((resolve) => setTimeout(resolve, 20));
    status = await practice.bulkExports.status(PRINCIPAL, e.id);
  }
  const seconds = (performance.now() - exportStart) / 1000;
  clearInterval(sampler);
  await worker.stop();
  if (status.status !== "completed") throw new Error(`the export ended ${status.status}: ${status.error}`);
  if (status.exported !== total) throw new Error(`exported ${status.exported}, expected ${total}`);

  // Every file read back and decrypted: the lines add up.
  let lines = 0;
  for (const f of status.files) {
    const { content } = await practice.bulkExports.file(PRINCIPAL, e.id, f.position);
    for await (const chunk of content) for (const byte of chunk) if (byte === 10) lines++;
  }
  if (lines !== total) throw new Error(`the files hold ${lines} lines, expected ${total}`);

  const rate = total / seconds;
  const growth = (rssPeak - rssBefore) / MIB;
  const bytes = status.files.reduce((n, f) => n + f.sizeBytes, 0);
  console.log(
    `export: ${total} resources (${status.files.length} files, ${(bytes / MIB).toFixed(1)} MiB NDJSON) in ${seconds.toFixed(2)} s = ${Math.round(rate)} resources/s; goal 5,000/s: ${rate >= 5000 ? "met" : "NOT met"}`,
  );
  console.log(
    `RSS growth while exporting: ${growth.toFixed(1)} MiB (before ${(rssBefore / MIB).toFixed(0)} MiB, peak ${(rssPeak / MIB).toFixed(0)} MiB); goal < 64 MiB: ${growth < 64 ? "met" : "NOT met"}`,
  );
  console.log(
    `baseline (driver keyset pages, raw rows as JSON lines, no sealing): ${baseRows} rows in ${baseSeconds.toFixed(2)} s = ${Math.round(baseRows / baseSeconds)} rows/s; ratio ours/baseline time ${(seconds / baseSeconds).toFixed(2)}`,
  );
  await storage.close();
  if (engine !== "sqlite") await dropServerDatabases();
}

runBenchmark(main);
