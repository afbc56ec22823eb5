// PROTOTYPE comparison: the runtime, the baseline and our stack with each
// prototype option added in turn, under the same load as patients.bench.mjs.
//   node test/bench/proto/variants.mjs
// Env: as patients.bench.mjs, plus BENCH_VARIANTS (";"-separated option lists).
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { signAccessToken } from "@openpractice/runtime";
import { buildFixture } from "../fixture.mjs";
import {
  BASELINE_SERVER,
  SECRET,
  busyShare,
  intEnv,
  load,
  machineLine,
  searchLatency,
  startRuntime,
  startServer,
  stopServer,
  temp,
} from "../harness.mjs";

const PATIENTS = intEnv("BENCH_PATIENTS", 100_000);
const RUN = { duration: intEnv("BENCH_DURATION_SECONDS", 10), connections: intEnv("BENCH_CONNECTIONS", 10) };
const WARMUP = intEnv("BENCH_WARMUP_SECONDS", 2);
const SAMPLES = intEnv("BENCH_LATENCY_SAMPLES", 300);
const SCENARIOS = (process.env.BENCH_SCENARIOS ?? "search,create").split(",").filter(Boolean);
const VARIANTS = (
  process.env.BENCH_VARIANTS ??
  "stmt-cache;stmt-cache,jwt-key;stmt-cache,jwt-key,org-cache;stmt-cache,jwt-key,org-cache,lean-register;fts;stmt-cache,jwt-key,org-cache,lean-register,fts"
).split(";");
const PROTO_SERVER = fileURLToPath(new URL("./server.mjs", import.meta.url));

console.log(`${machineLine()}, CPU busy before the run ${((await busyShare()) * 100).toFixed(0)}%`);
const fixture = join(temp, "fixture.db");
await buildFixture(fixture, PATIENTS);
const token = await signAccessToken(SECRET, { organisationId: 1, userId: 101, scope: "read write" });
const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
const copy = (name) => (copyFileSync(fixture, join(temp, `${name}.db`)), join(temp, `${name}.db`));

const rows = [];
// One server at a time on a fresh copy: each variant sees the same database.
const specs = [
  ["baseline", () => startServer("baseline", [BASELINE_SERVER], { DB_FILE: copy("baseline") })],
  ["runtime", () => startRuntime("runtime", copy("runtime"), "warn")],
  ...VARIANTS.map((v, i) => [
    v,
    () =>
      startServer(`proto${i}`, [PROTO_SERVER], {
        DB_FILE: copy(`proto${i}`),
        PROTO: v,
        OPENPRACTICE_JWT_SECRET: SECRET,
      }),
  ]),
];
for (const [label, start] of specs) {
  const server = await start();
  try {
    const row = { label };
    for (const scenario of SCENARIOS) {
      if (WARMUP > 0) await load(server, scenario, headers, { ...RUN, duration: WARMUP });
      if (scenario === "search" && SAMPLES > 0) row.latency = await searchLatency(server, headers, SAMPLES);
      row[scenario] = await load(server, scenario, headers, RUN);
      if (row[scenario].bad > 0) console.error(`${label} ${scenario}: ${row[scenario].bad} bad responses`);
    }
    rows.push(row);
    console.error(`done: ${label}`);
  } finally {
    await stopServer(server);
  }
}
const base = rows[0];
console.log(
  "\n| variant | search req/s | vs baseline | search p50 / p95 ms (sequential) | create req/s | vs baseline | create p50 / p99 ms |",
);
console.log("| --- | ---: | ---: | --- | ---: | ---: | --- |");
for (const r of rows) {
  const s = r.search
    ? `${r.search.rps.toFixed(1)} | ${(r.search.rps / base.search.rps).toFixed(2)} | ${r.latency ? `${r.latency.p50.toFixed(1)} / ${r.latency.p95.toFixed(1)}` : ""}`
    : " | | ";
  const c = r.create
    ? `${r.create.rps.toFixed(1)} | ${(r.create.rps / base.create.rps).toFixed(2)} | ${r.create.p50} / ${r.create.p99}`
    : " | | ";
  console.log(`| ${r.label} | ${s} | ${c} |`);
}
