// Shared pieces of the benchmark scripts: a temp folder and child servers that
// are always cleaned up, the load (autocannon) and the sequential latency probe.
import { mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import os from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { toPatientListCriteria } from "@openpractice/core";
import { signAccessToken } from "@openpractice/runtime";
import { BENCH_ORGANISATION_ID } from "./fixture.mjs";

export const intEnv = (name, fallback) => {
  const n = Number(process.env[name] ?? fallback);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer`);
  return n;
};

/** Worker processes of our runtime (BENCH_RUNTIME_WORKERS, default 1; the baseline is always one process). */
export const RUNTIME_WORKERS = Math.max(1, intEnv("BENCH_RUNTIME_WORKERS", 1));

export const RUNTIME_CLI = fileURLToPath(new URL("../../packages/runtime/dist/cli.js", import.meta.url));
export const BASELINE_SERVER = fileURLToPath(new URL("./baseline-server.mjs", import.meta.url));
export const SECRET = "bench-secret-".padEnd(64, "0123456789abcdef");
// Raised so the benchmark is never throttled; the counter is still written on every request.
export const PLAN_LIMITS = '{"enterprise":100000000}';

// One word each, so our handler and the baseline run the very same SQL (one LIKE):
// a last-name fragment, first names, an email fragment, phone digits, an accented name.
export const SEARCH_TERMS = ["kowal", "priya", "olivia.tanaka", "0142", "muller", "renee"];
export const searchPath = (i) => `/v2/patients?search=${encodeURIComponent(SEARCH_TERMS[i % SEARCH_TERMS.length])}`;

// --- temp folder and child processes: removed and killed however the script ends ---
export const temp = mkdtempSync(join(os.tmpdir(), "openpractice-bench-"));
const children = new Set();
process.on("exit", () => {
  for (const child of children) child.kill("SIGKILL");
  rmSync(temp, { recursive: true, force: true });
});
for (const signal of ["SIGINT", "SIGTERM"]) process.once(signal, () => process.exit(130));

/** Runs a benchmark's main and exits: 0 when it resolves, 1 with the error printed when it throws. */
export function runBenchmark(main) {
  main().then(
    () => process.exit(0),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}

async function freePort() {
  const probe = createServer();
  await new Promise((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Starts `node …args` with `env` on a free loopback port, logging to a file, and waits until GET /healthz answers. */
export async function startServer(name, args, env) {
  const port = await freePort();
  const logFile = join(temp, `${name}.log`);
  const log = openSync(logFile, "a");
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1" },
    stdio: ["ignore", log, log],
  });
  children.add(child);
  // A server dying mid-run would otherwise show only as a failed request.
  child.once("exit", (code, signal) => {
    if (!child.stopping)
      console.error(
        `${name} exited unexpectedly (code ${code}, signal ${signal}):\n${readFileSync(logFile, "utf8").slice(-2000)}`,
      );
  });
  const url = `http://127.0.0.1:${port}`;
  for (let waited = 0; waited < 30_000; waited += 100) {
    if (child.exitCode !== null) break;
    if (
      await fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { name, url, child, logFile };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${name} did not start:\n${readFileSync(logFile, "utf8").slice(-2000)}`);
}

/**
 * The runtime as deployed: `openpractice serve` configured from the environment, on a SQLite file or a
 * postgres:// / mysql:// URL; `env` overrides the defaults below, `serveArgs` follow `serve`.
 */
export function startRuntime(name, database, logLevel, cli = RUNTIME_CLI, env = {}, serveArgs = []) {
  // BENCH_CPU_PROF=<dir>: the runtime writes a V8 CPU profile there when it stops.
  const profile = process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  // BENCH_RUNTIME_FLAGS: Node flags for the runtime only, e.g. "--trace-gc" or heap sizes (NODE_OPTIONS refuses some).
  const flags = (process.env.BENCH_RUNTIME_FLAGS ?? "").split(/\s+/).filter(Boolean);
  return startServer(name, [...profile, ...flags, cli, "serve", ...serveArgs], {
    DATABASE_URL: database.includes("://") ? database : `sqlite:${database}`,
    OPENPRACTICE_DATA_DIR: temp,
    OPENPRACTICE_JWT_SECRET: SECRET,
    OPENPRACTICE_PLAN_LIMITS: PLAN_LIMITS,
    OPENPRACTICE_ENV: "production",
    LOG_LEVEL: logLevel,
    // One process, as the figures in docs/performance.md were measured, unless BENCH_RUNTIME_WORKERS asks for the
    // runtime as deployed on a server engine (one per core); workers.bench.mjs asks per run.
    OPENPRACTICE_WORKERS: String(RUNTIME_WORKERS),
    ...env,
  });
}

export async function stopServer(server) {
  server.child.stopping = true;
  if (server.child.exitCode === null) {
    const exited = new Promise((resolve) => server.child.once("exit", resolve));
    server.child.kill("SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    server.child.kill("SIGKILL");
  }
  children.delete(server.child);
}

// --- load ------------------------------------------------------------------------
let created = 0;
const runTag = Date.now().toString(36);
/** A registration no one made before (unique last name), as the v2 contract spells it. */
export const newPatientBody = () => {
  const n = created++;
  return JSON.stringify({
    first_name: "Bench",
    last_name: `Patient ${runTag}-${n}`,
    date_of_birth: "1980-05-17",
    gender: "female",
    email: `bench.${runTag}.${n}@example.org`,
    phone: "(555) 010-2030",
    address: { street: "1 Main Street", city: "Springfield", state: "IL", zip_code: "62701", country: "US" },
  });
};

const SCENARIOS = {
  search: { method: "GET", next: (i) => ({ path: searchPath(i) }) },
  create: { method: "POST", next: () => ({ path: "/v2/patients", body: newPatientBody() }) },
};

/**
 * Closed-loop load for `duration` seconds over `connections` keep-alive connections. `scenario` names one above, or
 * is `{ method, next(i) }` whose `next` may also set the method and body of request i (a mix).
 */
export async function load(server, scenario, headers, { duration, connections }) {
  let i = 0;
  const { method, next } = typeof scenario === "string" ? SCENARIOS[scenario] : scenario;
  const r = await autocannon({
    url: server.url,
    connections,
    duration,
    headers,
    requests: [{ method, setupRequest: (req) => ({ ...req, ...next(i++) }) }],
  });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p97_5: r.latency.p97_5,
    p99: r.latency.p99,
    total: r.requests.total,
    bad: r.non2xx + r.errors + r.timeouts,
  };
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
/** p50, p95 and p99 of the samples. */
export const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: percentile(s, 50), p95: percentile(s, 95), p99: percentile(s, 99) };
};

/**
 * Times `fn(i)` in process: `warmup` calls, then `samples` calls one after another; prints the label with p50, p95
 * and p99 in milliseconds (padded to `width`) and answers them.
 */
export async function sampleLatency(label, fn, { samples, warmup = 50, width = 40 }) {
  for (let i = 0; i < warmup; i++) await fn(i);
  const xs = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    await fn(i);
    xs.push(performance.now() - started);
  }
  const s = stats(xs);
  const ms = (n) => `${n.toFixed(2)} ms`;
  console.log(`${label.padEnd(width)} p50 ${ms(s.p50)}  p95 ${ms(s.p95)}  p99 ${ms(s.p99)}`);
  return s;
}

/**
 * Search latency alone: `samples` requests one at a time over one keep-alive
 * connection (autocannon reports no p95, and under load latency is mostly queueing).
 */
export async function searchLatency(server, headers, samples) {
  const all = [];
  const byTerm = new Map(SEARCH_TERMS.map((t) => [t, []]));
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    const res = await fetch(server.url + searchPath(i), { headers });
    await res.arrayBuffer();
    const ms = performance.now() - started;
    if (!res.ok) throw new Error(`${server.name}: search answered ${res.status}`);
    all.push(ms);
    byTerm.get(SEARCH_TERMS[i % SEARCH_TERMS.length]).push(ms);
  }
  return { ...stats(all), byTerm: Object.fromEntries([...byTerm].map(([t, xs]) => [t, stats(xs)])) };
}

/**
 * One request at a time to each server in turn, the same term for both in each round and which goes first
 * alternating, so the machine's drift within the run (another process waking, the CPU's clock) falls on both
 * alike: the ratio of the p95s is then a figure of our layers, not of the minute it was taken in.
 */
export async function pairedSearchLatency(servers, headers, rounds) {
  const samples = new Map(servers.map((s) => [s.name, { all: [], byTerm: new Map(SEARCH_TERMS.map((t) => [t, []])) }]));
  for (let i = 0; i < rounds; i++) {
    const order = i % 2 === 0 ? servers : [...servers].reverse();
    for (const server of order) {
      const started = performance.now();
      const res = await fetch(server.url + searchPath(i), { headers });
      await res.arrayBuffer();
      const ms = performance.now() - started;
      if (!res.ok) throw new Error(`${server.name}: search answered ${res.status}`);
      const mine = samples.get(server.name);
      mine.all.push(ms);
      mine.byTerm.get(SEARCH_TERMS[i % SEARCH_TERMS.length]).push(ms);
    }
  }
  return Object.fromEntries(
    [...samples].map(([name, x]) => [
      name,
      { ...stats(x.all), byTerm: Object.fromEntries([...x.byTerm].map(([t, xs]) => [t, stats(xs)])) },
    ]),
  );
}

/**
 * In process, the repository call PatientService.list makes for `?search=<term>` (organisation 1): one row
 * past the page, and the count bounded at `countLimit` (undefined: exact).
 */
export function repositorySearch(storage, term, countLimit) {
  const c = toPatientListCriteria(1, { search: term });
  return storage.repositories.patients.list({ ...c, limit: c.limit + 1, countLimit });
}

/** Machine facts for the report. */
export function machineLine() {
  const cpus = os.cpus();
  return `node ${process.version}, ${cpus[0]?.model} x ${cpus.length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.type()} ${os.release()}`;
}

/** Share of all cores busy over the next `ms`: other work on the machine skews every figure. */
export async function busyShare(ms = 1000) {
  const sample = () =>
    os.cpus().reduce(
      (acc, c) => ({
        idle: acc.idle + c.times.idle,
        total: acc.total + Object.values(c.times).reduce((a, b) => a + b, 0),
      }),
      { idle: 0, total: 0 },
    );
  const a = sample();
  await new Promise((r) => setTimeout(r, ms));
  const b = sample();
  return 1 - (b.idle - a.idle) / (b.total - a.total);
}

/** The request headers of the load: a token of the fixture's organisation (read and write) and a JSON body. */
export async function benchHeaders() {
  const token = await signAccessToken(SECRET, {
    organisationId: BENCH_ORGANISATION_ID,
    userId: 101,
    scope: "read write",
  });
  return { authorization: `Bearer ${token}`, "content-type": "application/json" };
}

/** The middle value (the lower of the two middle ones for an even count). */
export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
