// Scaling of `openpractice serve --workers N` (docs/performance.md, "Workers"): the same mixed load over HTTP
// (8 reads, a patient search or a patient by id, for every 2 registrations, POST /v2/patients) against the real
// runtime with 1 worker, then with 2, each on its own copy of one seeded database. Prints req/s, latency and the
// ratio, and how the machine's cores were shared between the runtime's processes, this process (the load
// generator, autocannon) and the rest (the database server).
//
//   npm run bench:workers                                           PostgreSQL (a throw-away server)
//   DATABASE_URL=postgres://… node test/bench/workers.bench.mjs      any PostgreSQL or MySQL server (after npm run build)
//
// Env: BENCH_WORKERS (1,2: the counts to run, the first is the ratio's base), BENCH_PATIENTS (20000),
// BENCH_DURATION_SECONDS (15), BENCH_WARMUP_SECONDS (3), BENCH_CONNECTIONS (20), BENCH_READS (search,get: the reads
// taking turns; "get" alone leaves the database little to do, so the runtime's own CPU is what limits),
// BENCH_PIN (a CPU list such as "0": pin this process, the load generator, there with taskset and report that too).
// Exits 1 when any response was not 2xx (the figures would then be meaningless).
import { execFileSync } from "node:child_process";
import os from "node:os";
import { idleCores, processTree, withCpuShares } from "./cpu-shares.mjs";
import { buildServerFixture, dropServerDatabases, engineOf, serverVersion } from "./fixture-server.mjs";
import {
  busyShare,
  intEnv,
  load,
  machineLine,
  newPatientBody,
  RUNTIME_CLI,
  SEARCH_TERMS,
  benchHeaders,
  searchPath,
  startRuntime,
  stopServer,
} from "./harness.mjs";

const DATABASE_URL = process.env.DATABASE_URL || undefined;
const ENGINE = engineOf(DATABASE_URL);
if (ENGINE === "sqlite")
  throw new Error("DATABASE_URL: a postgres:// or mysql:// server (SQLite has one writer; run npm run bench:workers)");
const PATIENTS = intEnv("BENCH_PATIENTS", 20_000);
const RUN = { duration: intEnv("BENCH_DURATION_SECONDS", 15), connections: intEnv("BENCH_CONNECTIONS", 20) };
const WARMUP = intEnv("BENCH_WARMUP_SECONDS", 3);
const COUNTS = (process.env.BENCH_WORKERS ?? "1,2").split(",").map(Number);
if (COUNTS.some((n) => !Number.isSafeInteger(n) || n < 1)) throw new Error("BENCH_WORKERS: counts such as 1,2");
const PIN = process.env.BENCH_PIN || undefined;
const READS = (process.env.BENCH_READS ?? "search,get").split(",").filter(Boolean);
if (READS.some((r) => !["search", "get"].includes(r))) throw new Error("BENCH_READS: search and/or get (by id)");

const f1 = (n) => n.toFixed(1);
/**
 * 8 reads for 2 registrations in every 10 requests; the reads take turns among READS (a search, a patient by id).
 * Each request gets headers of its own: autocannon writes a POST's Content-Length into the headers object it is
 * given, and a GET sharing it would announce a body it never sends.
 */
function mixedScenario(ids, headers) {
  return {
    method: "GET",
    next: (i) => {
      if (i % 10 >= 8) return { method: "POST", path: "/v2/patients", body: newPatientBody(), headers: { ...headers } };
      const read = READS[(i >> 1) % READS.length];
      const path = read === "search" ? searchPath(i >> 1) : `/v2/patients/${ids[(i >> 3) % ids.length]}`;
      return { method: "GET", path, body: undefined, headers: { ...headers } };
    },
  };
}

/** Ids of fixture patients, from the search terms' first pages. */
async function patientIds(url, headers) {
  const ids = [];
  for (const term of SEARCH_TERMS) {
    const reply = await (await fetch(`${url}/v2/patients?search=${encodeURIComponent(term)}`, { headers })).json();
    for (const p of reply.data ?? []) ids.push(p.id);
  }
  if (ids.length === 0) throw new Error("no fixture patient found by the search terms");
  return ids;
}

async function runWith(workers, database, headers) {
  const server = await startRuntime(`workers-${workers}`, database, "warn", RUNTIME_CLI, {}, [
    "--workers",
    String(workers),
  ]);
  try {
    // /healthz answered once the first worker listens; wait for the others' processes, then warm up.
    const processes = () => processTree(server.child.pid).length - 1;
    for (let waited = 0; workers > 1 && processes() < workers && waited < 30_000; waited += 100)
      await new Promise((r) => setTimeout(r, 100));
    const ids = await patientIds(server.url, headers);
    const scenario = mixedScenario(ids, headers);
    if (WARMUP > 0) await load(server, scenario, headers, { ...RUN, duration: WARMUP });
    const { cpu, ...result } = await withCpuShares(server.child.pid, () => load(server, scenario, headers, RUN));
    return {
      workers,
      processes: processTree(server.child.pid).length,
      ...result,
      // Shares of the whole machine (all cores) over the run.
      cores: {
        runtime: cpu.server / cpu.wall,
        bench: cpu.bench / cpu.wall,
        rest: cpu.rest / cpu.wall,
        idle: idleCores(cpu),
      },
    };
  } finally {
    await stopServer(server);
  }
}

async function main() {
  if (PIN) {
    execFileSync("taskset", ["-pc", PIN, String(process.pid)]);
    console.log(
      `load generator (this process) pinned to CPU ${PIN} with taskset; the runtime and the database are not`,
    );
  }
  console.log(`${machineLine()}, ${await serverVersion(DATABASE_URL)}`);
  const busy = await busyShare();
  console.log(`CPU busy before the run: ${(busy * 100).toFixed(0)}%`);
  if (busy > 0.1) console.warn("warning: other work is using the CPU: figures will be low and noisy");
  console.log(
    `patients ${PATIENTS}, mixed load (80% reads taking turns among ${READS.join(", ")}; 20% create), ${RUN.connections} connections, ${RUN.duration} s per run after ${WARMUP} s warm-up; the load generator runs in this process on the same ${os.cpus().length} cores as the runtime and the database server`,
  );
  const fixture = await buildServerFixture(DATABASE_URL, PATIENTS);
  const headers = await benchHeaders();

  const results = [];
  for (const workers of COUNTS) results.push(await runWith(workers, await fixture.copyFor(`w${workers}`), headers));

  const base = results[0];
  console.log(
    "\n| workers | req/s | ratio | p50 / p97.5 / p99 ms | cores: runtime / load generator / database and rest / idle |",
  );
  console.log("| ---: | ---: | ---: | --- | --- |");
  for (const r of results) {
    const c = r.cores;
    console.log(
      `| ${r.workers} | ${f1(r.rps)} | ${(r.rps / base.rps).toFixed(2)} | ${r.p50} / ${r.p97_5} / ${r.p99} | ${[c.runtime, c.bench, c.rest, c.idle].map((x) => x.toFixed(2)).join(" / ")} |`,
    );
  }
  const two = results.find((r) => r.workers === 2);
  if (two && base.workers === 1) {
    const ratio = two.rps / base.rps;
    console.log(`\ntarget 2 workers / 1 >= 1.6: ${ratio.toFixed(2)} -> ${ratio >= 1.6 ? "holds" : "MISSED"}`);
  }
  const bad = results.filter((r) => r.bad > 0);
  for (const r of bad)
    console.error(`${r.workers} workers: ${r.bad} responses were errors or not 2xx: figures are not valid`);
  process.exitCode = bad.length > 0 ? 1 : 0;
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => dropServerDatabases());
