// Benchmark of GET /v2/patients?search=… and POST /v2/patients on the real
// runtime (a child process, as deployed) against a bare h3 baseline doing the
// same SQL through the same driver (baseline-server.mjs), both on loopback over
// a seeded copy of the same SQLite database. See docs/performance.md.
//
//   npm run bench
//   BENCH_PATIENTS=100000 BENCH_DURATION_SECONDS=10 BENCH_CONNECTIONS=10 npm run bench
//
// Env: BENCH_PATIENTS (100000), BENCH_DURATION_SECONDS (10), BENCH_WARMUP_SECONDS (2),
// BENCH_CONNECTIONS (10), BENCH_LATENCY_SAMPLES (500), BENCH_LOG_INFO (1: also run
// ours with LOG_LEVEL=info; 0: skip). Exits 1 when any response was not 2xx.
import { copyFileSync, mkdtempSync, openSync, readFileSync, rmSync, statSync } from "node:fs";
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import os from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import BetterSqlite3 from "better-sqlite3";
import { signAccessToken } from "@openpractice/runtime";
import { BENCH_ORGANISATION_ID, buildFixture } from "./fixture.mjs";

const intEnv = (name, fallback) => {
  const n = Number(process.env[name] ?? fallback);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer`);
  return n;
};
const PATIENTS = intEnv("BENCH_PATIENTS", 100_000);
const DURATION = intEnv("BENCH_DURATION_SECONDS", 10);
const WARMUP = intEnv("BENCH_WARMUP_SECONDS", 2);
const CONNECTIONS = intEnv("BENCH_CONNECTIONS", 10);
const SAMPLES = intEnv("BENCH_LATENCY_SAMPLES", 500);
const WITH_INFO = process.env.BENCH_LOG_INFO !== "0";

const RUNTIME_CLI = fileURLToPath(new URL("../../packages/runtime/dist/cli.js", import.meta.url));
const BASELINE = fileURLToPath(new URL("./baseline-server.mjs", import.meta.url));
const SECRET = "bench-secret-".padEnd(64, "0123456789abcdef");

// One word each, so our handler and the baseline run the very same SQL (one LIKE):
// a last-name fragment, first names, an email fragment, phone digits, an accented name.
const SEARCH_TERMS = ["kowal", "priya", "olivia.tanaka", "0142", "muller", "renee"];
const searchPath = (i) => `/v2/patients?search=${encodeURIComponent(SEARCH_TERMS[i % SEARCH_TERMS.length])}`;

// --- child processes and temp files: always cleaned up ------------------------
const temp = mkdtempSync(join(os.tmpdir(), "openpractice-bench-"));
const children = new Set();
process.on("exit", () => {
  for (const child of children) child.kill("SIGKILL");
  rmSync(temp, { recursive: true, force: true });
});
for (const signal of ["SIGINT", "SIGTERM"]) process.once(signal, () => process.exit(130));

async function freePort() {
  const probe = createServer();
  await new Promise((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Starts `node <script> …args` with `env`, logging to a file, and waits until GET /healthz answers. */
async function startServer(name, args, env) {
  const port = await freePort();
  const logFile = join(temp, `${name}.log`);
  const log = openSync(logFile, "a");
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1" }, stdio: ["ignore", log, log] });
  children.add(child);
  const url = `http://127.0.0.1:${port}`;
  for (let waited = 0; waited < 30_000; waited += 100) {
    if (child.exitCode !== null) break;
    const ok = await fetch(`${url}/healthz`).then((r) => r.ok, () => false);
    if (ok) return { name, url, child, logFile };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${name} did not start:\n${readFileSync(logFile, "utf8").slice(-2000)}`);
}

async function stopServer(server) {
  if (server.child.exitCode !== null) return;
  const exited = new Promise((resolve) => server.child.once("exit", resolve));
  server.child.kill("SIGTERM");
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
  server.child.kill("SIGKILL");
  children.delete(server.child);
}

function startOurs(name, dbFile, logLevel) {
  return startServer(name, [RUNTIME_CLI, "serve"], {
    DATABASE_URL: `sqlite:${dbFile}`,
    OPENPRACTICE_DATA_DIR: temp,
    OPENPRACTICE_JWT_SECRET: SECRET,
    // Raised so the benchmark is never throttled; the counter is still written on every request.
    OPENPRACTICE_PLAN_LIMITS: '{"enterprise":100000000}',
    OPENPRACTICE_ENV: "production",
    LOG_LEVEL: logLevel,
  });
}

// --- load ----------------------------------------------------------------------
let created = 0;
const runTag = Date.now().toString(36);
/** A registration no one made before (unique last name), as the v2 contract spells it. */
const newPatientBody = () =>
  JSON.stringify({
    first_name: "Bench",
    last_name: `Patient ${runTag}-${created++}`,
    date_of_birth: "1980-05-17",
    gender: "female",
    email: `bench.${runTag}.${created}@example.org`,
    phone: "(555) 010-2030",
    address: { street: "1 Main Street", city: "Springfield", state: "IL", zip_code: "62701", country: "US" },
  });

const SCENARIOS = {
  search: { method: "GET", next: (i) => ({ path: searchPath(i) }) },
  create: { method: "POST", next: () => ({ path: "/v2/patients", body: newPatientBody() }) },
};

/** autocannon against one server for `duration` seconds; closed-loop, CONNECTIONS keep-alive connections. */
async function load(server, scenario, headers, duration) {
  let i = 0;
  const { method, next } = SCENARIOS[scenario];
  const r = await autocannon({
    url: server.url,
    connections: CONNECTIONS,
    duration,
    headers,
    requests: [{ method, setupRequest: (req) => ({ ...req, ...next(i++) }) }],
  });
  return { rps: r.requests.average, p50: r.latency.p50, p97_5: r.latency.p97_5, p99: r.latency.p99, total: r.requests.total, bad: r.non2xx + r.errors + r.timeouts };
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/**
 * Search latency alone: one request at a time over one keep-alive connection
 * (autocannon reports no p95, and under load latency is mostly queueing).
 */
async function searchLatency(server, headers) {
  const all = [];
  const byTerm = new Map(SEARCH_TERMS.map((t) => [t, []]));
  for (let i = 0; i < SAMPLES; i++) {
    const started = performance.now();
    const res = await fetch(server.url + searchPath(i), { headers });
    await res.arrayBuffer();
    const ms = performance.now() - started;
    if (!res.ok) throw new Error(`${server.name}: search answered ${res.status}`);
    all.push(ms);
    byTerm.get(SEARCH_TERMS[i % SEARCH_TERMS.length]).push(ms);
  }
  const stats = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return { p50: percentile(s, 50), p95: percentile(s, 95), p99: percentile(s, 99) };
  };
  return { ...stats(all), byTerm: Object.fromEntries([...byTerm].map(([t, xs]) => [t, stats(xs)])) };
}

/** Both servers must find the same patients, or the comparison is meaningless. */
async function matchCounts(ours, baseline, headers) {
  const counts = {};
  for (const term of SEARCH_TERMS) {
    const path = `/v2/patients?search=${encodeURIComponent(term)}`;
    const a = await (await fetch(ours.url + path, { headers })).json();
    const b = await (await fetch(baseline.url + path)).json();
    if (a.pagination?.total_count !== b.total) throw new Error(`'${term}': ours counts ${a.pagination?.total_count}, baseline ${b.total}`);
    counts[term] = b.total;
  }
  return counts;
}

// --- main ----------------------------------------------------------------------
const f1 = (n) => n.toFixed(1);
const f2 = (n) => n.toFixed(2);

async function main() {
  const cpus = os.cpus();
  const sqliteVersion = new BetterSqlite3(":memory:").prepare("select sqlite_version() as v").get().v;
  console.log(`node ${process.version}, ${cpus[0]?.model} x ${cpus.length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.type()} ${os.release()}, SQLite ${sqliteVersion}`);
  console.log(`patients ${PATIENTS}, ${CONNECTIONS} connections, ${DURATION} s per run after ${WARMUP} s warm-up, ${SAMPLES} sequential search samples`);

  const fixture = join(temp, "fixture.db");
  let t = performance.now();
  await buildFixture(fixture, PATIENTS);
  console.log(`fixture: ${PATIENTS} patients in ${f1((performance.now() - t) / 1000)} s, ${f1(statSync(fixture).size / 2 ** 20)} MiB`);
  const copy = (name) => (copyFileSync(fixture, join(temp, name)), join(temp, name));

  const servers = [await startOurs("ours", copy("ours.db"), "warn"), await startServer("baseline", [BASELINE], { DB_FILE: copy("baseline.db") })];
  if (WITH_INFO) servers.push(await startOurs("ours-info", copy("ours-info.db"), "info"));
  const [ours, baseline] = servers;
  const token = await signAccessToken(SECRET, { organisationId: BENCH_ORGANISATION_ID, userId: 101, scope: "read write" });
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };

  try {
    const counts = await matchCounts(ours, baseline, headers);
    console.log(`matches per term (active patients): ${Object.entries(counts).map(([k, v]) => `${k}=${v}`).join(", ")}`);

    // Latency first, while every database still holds exactly the fixture.
    const latency = {};
    for (const s of [ours, baseline]) {
      await load(s, "search", headers, WARMUP);
      latency[s.name] = await searchLatency(s, headers);
    }

    // Search before create, so every search run sees the fixture's row count.
    const results = { search: {}, create: {} };
    for (const scenario of ["search", "create"]) {
      for (const s of servers) {
        if (WARMUP > 0) await load(s, scenario, headers, WARMUP);
        results[scenario][s.name] = await load(s, scenario, headers, DURATION);
      }
    }
    report(results, latency);
    const bad = Object.values(results).flatMap((r) => Object.entries(r)).filter(([, r]) => r.bad > 0);
    for (const [name, r] of bad) console.error(`${name}: ${r.bad} responses were errors or not 2xx: figures are not valid`);
    process.exitCode = bad.length > 0 ? 1 : 0;
  } finally {
    await Promise.all(servers.map(stopServer));
  }
}

function report(results, latency) {
  console.log("\n| scenario | ours req/s | baseline req/s | ours/baseline | ours p50 / p97.5 / p99 ms | baseline p50 / p97.5 / p99 ms |");
  console.log("| --- | ---: | ---: | ---: | --- | --- |");
  for (const [scenario, r] of Object.entries(results)) {
    const b = r.baseline;
    for (const name of Object.keys(r).filter((n) => n !== "baseline")) {
      const o = r[name];
      const label = name === "ours" ? scenario : `${scenario} (${name}, LOG_LEVEL=info)`;
      console.log(`| ${label} | ${f1(o.rps)} | ${f1(b.rps)} | ${f2(o.rps / b.rps)} | ${o.p50} / ${o.p97_5} / ${o.p99} | ${b.p50} / ${b.p97_5} / ${b.p99} |`);
    }
  }
  console.log("\nsearch latency, sequential (one request at a time):");
  console.log("| server | p50 ms | p95 ms | p99 ms |");
  console.log("| --- | ---: | ---: | ---: |");
  for (const [name, l] of Object.entries(latency)) console.log(`| ${name} | ${f2(l.p50)} | ${f2(l.p95)} | ${f2(l.p99)} |`);
  console.log("\nsearch p50 / p95 ms by term, ours vs baseline:");
  for (const term of SEARCH_TERMS) {
    const o = latency.ours.byTerm[term];
    const b = latency.baseline.byTerm[term];
    console.log(`  ${term.padEnd(14)} ours ${f2(o.p50)} / ${f2(o.p95)}   baseline ${f2(b.p50)} / ${f2(b.p95)}`);
  }
  const p95 = latency.ours.p95;
  const worstRatio = Math.min(results.search.ours.rps / results.search.baseline.rps, results.create.ours.rps / results.create.baseline.rps);
  console.log(`\ntarget search p95 < 20 ms at ${PATIENTS} patients: ${f2(p95)} ms -> ${p95 < 20 ? "holds" : "MISSED"}`);
  console.log(`target ours/baseline >= 0.67 (layers cost under a third): worst ${f2(worstRatio)} -> ${worstRatio >= 2 / 3 ? "holds" : "MISSED"}`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
