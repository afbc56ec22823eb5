// PROTOTYPE comparison on PostgreSQL: the runtime, the baseline and our stack with the
// search-list options of pg-search-server.mjs, over one kept fixture database (search only,
// nothing writes). Build the fixture with: DATABASE_URL=… BENCH_KEEP=1 node test/bench/pg-search-plan.mjs
//   BENCH_FIXTURE_URL=postgres://…/opbench_…_fixture node test/bench/proto/pg-search-variants.mjs
// Env: BENCH_DURATION_SECONDS (10), BENCH_WARMUP_SECONDS (2), BENCH_CONNECTIONS (10),
// BENCH_LATENCY_SAMPLES (500), BENCH_VARIANTS (";"-separated option lists), CAP (1000).
import { fileURLToPath } from "node:url";
import { signAccessToken } from "@openpractice/runtime";
import {
  BASELINE_SERVER,
  SEARCH_TERMS,
  SECRET,
  busyShare,
  intEnv,
  load,
  machineLine,
  searchLatency,
  startRuntime,
  startServer,
  stopServer,
} from "../harness.mjs";

const URL_ = process.env.BENCH_FIXTURE_URL;
if (!URL_) throw new Error("set BENCH_FIXTURE_URL to a kept fixture database");
const RUN = { duration: intEnv("BENCH_DURATION_SECONDS", 10), connections: intEnv("BENCH_CONNECTIONS", 10) };
const WARMUP = intEnv("BENCH_WARMUP_SECONDS", 2);
const SAMPLES = intEnv("BENCH_LATENCY_SAMPLES", 500);
const VARIANTS = (process.env.BENCH_VARIANTS ?? "concurrent;capped-count;capped-count,concurrent").split(";");
const SERVER = fileURLToPath(new URL("./pg-search-server.mjs", import.meta.url));

console.log(`${machineLine()}, CPU busy before the run ${((await busyShare()) * 100).toFixed(0)}%`);
const token = await signAccessToken(SECRET, { organisationId: 1, userId: 101, scope: "read write" });
const headers = { authorization: `Bearer ${token}` };
const specs = [
  ["baseline", () => startServer("baseline", [BASELINE_SERVER], { DATABASE_URL: URL_ })],
  ["runtime", () => startRuntime("runtime", URL_, "warn")],
  ...VARIANTS.map((v, i) => [
    v,
    () => startServer(`proto${i}`, [SERVER], { DATABASE_URL: URL_, PROTO: v, OPENPRACTICE_JWT_SECRET: SECRET }),
  ]),
];
const f = (n) => n.toFixed(1);
console.log(
  `\n| variant | ${SEARCH_TERMS.map((t) => `${t} p50/p95`).join(" | ")} | all p50 / p95 / p99 | req/s |\n| --- |${" ---: |".repeat(SEARCH_TERMS.length + 2)}`,
);
for (const [label, start] of specs) {
  const server = await start();
  try {
    if (WARMUP > 0) await load(server, "search", headers, { ...RUN, duration: WARMUP });
    const l = await searchLatency(server, headers, SAMPLES);
    const r = await load(server, "search", headers, RUN);
    if (r.bad > 0) throw new Error(`${label}: ${r.bad} bad responses`);
    console.log(
      `| ${label} | ${SEARCH_TERMS.map((t) => `${f(l.byTerm[t].p50)} / ${f(l.byTerm[t].p95)}`).join(" | ")} | ${f(l.p50)} / ${f(l.p95)} / ${f(l.p99)} | ${f(r.rps)} |`,
    );
  } finally {
    await stopServer(server);
  }
}
