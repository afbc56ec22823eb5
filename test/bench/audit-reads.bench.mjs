// The cost of auditing reads (docs/audit-trail.md): GET /v2/patients/{id} on the real runtime with the
// organisation's audit_reads off, then on, each a child process over its own copy of one seeded SQLite
// database, in this process tree. Prints req/s, latencies and the on/off ratio. See docs/performance.md.
//
//   node test/bench/audit-reads.bench.mjs
//
// Env: BENCH_PATIENTS (20000), BENCH_DURATION_SECONDS (10), BENCH_WARMUP_SECONDS (2), BENCH_CONNECTIONS (10),
// BENCH_LATENCY_SAMPLES (500). Exits 1 when any response was not 2xx or the audit rows do not match the reads.
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import autocannon from "autocannon";
import BetterSqlite3 from "better-sqlite3";
import { signAccessToken } from "@openpractice/runtime";
import { BENCH_ORGANISATION_ID, buildFixture } from "./fixture.mjs";
import { SECRET, busyShare, intEnv, machineLine, startRuntime, stats, stopServer, temp } from "./harness.mjs";

const PATIENTS = intEnv("BENCH_PATIENTS", 20_000);
const RUN = { duration: intEnv("BENCH_DURATION_SECONDS", 10), connections: intEnv("BENCH_CONNECTIONS", 10) };
const WARMUP = intEnv("BENCH_WARMUP_SECONDS", 2);
const SAMPLES = intEnv("BENCH_LATENCY_SAMPLES", 500);
const f1 = (n) => n.toFixed(1);
const f2 = (n) => n.toFixed(2);

async function readLoad(server, headers, ids, duration) {
  let i = 0;
  const r = await autocannon({
    url: server.url,
    connections: RUN.connections,
    duration,
    headers,
    requests: [{ method: "GET", setupRequest: (req) => ({ ...req, path: `/v2/patients/${ids[i++ % ids.length]}` }) }],
  });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    total: r.requests.total,
    bad: r.non2xx + r.errors + r.timeouts,
  };
}

async function sequential(server, headers, ids) {
  const ms = [];
  for (let i = 0; i < SAMPLES; i++) {
    const started = performance.now();
    const res = await fetch(`${server.url}/v2/patients/${ids[i % ids.length]}`, { headers });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${server.name}: read answered ${res.status}`);
    ms.push(performance.now() - started);
  }
  return stats(ms);
}

async function main() {
  console.log(machineLine());
  console.log(`CPU busy before the run: ${(100 * (await busyShare())).toFixed(0)}%`);
  const fixture = join(temp, "fixture.db");
  await buildFixture(fixture, PATIENTS);
  const ids = new BetterSqlite3(fixture, { readonly: true })
    .prepare("select id from patients order by id limit 5000")
    .all()
    .map((r) => r.id);
  const copies = {};
  for (const name of ["off", "on"]) {
    copies[name] = join(temp, `${name}.db`);
    copyFileSync(fixture, copies[name]);
    const db = new BetterSqlite3(copies[name]);
    db.prepare("update organisations set audit_reads = ? where id = ?").run(
      name === "on" ? 1 : 0,
      BENCH_ORGANISATION_ID,
    );
    db.close();
  }
  const token = await signAccessToken(SECRET, { organisationId: BENCH_ORGANISATION_ID, userId: 101, scope: "read" });
  const headers = { authorization: `Bearer ${token}` };
  console.log(
    `patients ${PATIENTS}, ${RUN.connections} connections, ${RUN.duration} s per run after ${WARMUP} s warm-up`,
  );

  const results = {};
  let exit = 0;
  for (const name of ["off", "on"]) {
    const server = await startRuntime(`audit-reads-${name}`, copies[name], "warn");
    try {
      if (WARMUP > 0) await readLoad(server, headers, ids, WARMUP);
      const load = await readLoad(server, headers, ids, RUN.duration);
      const latency = await sequential(server, headers, ids);
      results[name] = { ...load, latency };
      if (load.bad > 0) {
        console.error(`${name}: ${load.bad} responses were not 2xx`);
        exit = 1;
      }
    } finally {
      await stopServer(server);
    }
    const rows = new BetterSqlite3(copies[name], { readonly: true })
      .prepare("select count(*) as n from audit_events where action = 'read:v2GetPatient'")
      .get().n;
    results[name].auditRows = rows;
  }
  // Every read of the audited run wrote one entry (warm-up, load and samples); the other wrote none.
  if (results.off.auditRows !== 0 || results.on.auditRows < results.on.total + SAMPLES) {
    console.error(
      `audit rows: off ${results.off.auditRows}, on ${results.on.auditRows} for at least ${results.on.total + SAMPLES} reads`,
    );
    exit = 1;
  }
  console.log("\n| audit_reads | req/s | p50 / p99 ms under load | one at a time p50 / p95 ms | audit rows |");
  console.log("| --- | ---: | --- | --- | ---: |");
  for (const name of ["off", "on"]) {
    const r = results[name];
    console.log(
      `| ${name} | ${f1(r.rps)} | ${r.p50} / ${r.p99} | ${f2(r.latency.p50)} / ${f2(r.latency.p95)} | ${r.auditRows} |`,
    );
  }
  console.log(`\non/off throughput: ${f2(results.on.rps / results.off.rps)}`);
  process.exitCode = exit;
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
