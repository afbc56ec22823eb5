// PROTOTYPE comparison on PostgreSQL, paired: the runtime and pg-search-server.mjs variants run side
// by side and each search goes to every server in turn (the order rotates), so a noisy machine slows
// them alike. Sequential requests only (latency, not throughput). Over one kept fixture database:
//   BENCH_FIXTURE_URL=postgres://…/opbench_…_fixture BENCH_VARIANTS=one-scan node test/bench/proto/pg-search-paired.mjs
// Env: BENCH_VARIANTS (";"-separated option lists of pg-search-server.mjs; "" for none), BENCH_OTHER_RUNTIME (the
// dist/cli.js of another checkout's runtime, e.g. a git worktree of an older commit), BENCH_ROUNDS (250: each
// term that many times per server), BENCH_WARMUP_SECONDS (2 of load on each server first).
import { fileURLToPath } from "node:url";
import { signAccessToken } from "@openpractice/runtime";
import {
  SEARCH_TERMS,
  SECRET,
  busyShare,
  intEnv,
  load,
  machineLine,
  startRuntime,
  startServer,
  stats,
  stopServer,
} from "../harness.mjs";

const URL_ = process.env.BENCH_FIXTURE_URL;
if (!URL_) throw new Error("set BENCH_FIXTURE_URL to a kept fixture database");
const ROUNDS = intEnv("BENCH_ROUNDS", 250);
const WARMUP = intEnv("BENCH_WARMUP_SECONDS", 2);
const VARIANTS = (process.env.BENCH_VARIANTS ?? "one-scan").split(";").filter(Boolean);
const SERVER = fileURLToPath(new URL("./pg-search-server.mjs", import.meta.url));

console.log(`${machineLine()}, CPU busy before the run ${((await busyShare()) * 100).toFixed(0)}%`);
const token = await signAccessToken(SECRET, { organisationId: 1, userId: 101, scope: "read write" });
const headers = { authorization: `Bearer ${token}` };
const servers = [await startRuntime("runtime", URL_, "warn")];
if (process.env.BENCH_OTHER_RUNTIME)
  servers.push(await startRuntime("other-runtime", URL_, "warn", process.env.BENCH_OTHER_RUNTIME));
for (const v of VARIANTS)
  servers.push(await startServer(v, [SERVER], { DATABASE_URL: URL_, PROTO: v, OPENPRACTICE_JWT_SECRET: SECRET }));
/** Every variant must answer as the runtime does (same total, same page), or its timing means nothing. */
async function sameAnswers() {
  for (const term of SEARCH_TERMS) {
    for (const query of ["", "&page=3&sort=last_name&order=asc"]) {
      const path = `/v2/patients?search=${encodeURIComponent(term)}${query}`;
      const answers = await Promise.all(servers.map(async (s) => (await fetch(s.url + path, { headers })).json()));
      const key = (a) => JSON.stringify([a.pagination?.total_count, a.pagination?.has_next, a.data?.map((p) => p.id)]);
      for (const [i, a] of answers.entries())
        if (key(a) !== key(answers[0]))
          throw new Error(`${servers[i].name} answers ${path} differently from the runtime`);
    }
  }
}

try {
  await sameAnswers();
  for (const s of servers) if (WARMUP > 0) await load(s, "search", headers, { duration: WARMUP, connections: 10 });
  const samples = new Map(servers.map((s) => [s.name, new Map(SEARCH_TERMS.map((t) => [t, []]))]));
  for (let i = 0; i < ROUNDS; i++) {
    for (const term of SEARCH_TERMS) {
      for (let k = 0; k < servers.length; k++) {
        const s = servers[(i + k) % servers.length];
        const started = performance.now();
        const res = await fetch(`${s.url}/v2/patients?search=${encodeURIComponent(term)}`, { headers });
        await res.arrayBuffer();
        if (!res.ok) throw new Error(`${s.name}: search answered ${res.status}`);
        samples
          .get(s.name)
          .get(term)
          .push(performance.now() - started);
      }
    }
  }
  const cell = (xs) => {
    const { p50, p95 } = stats(xs);
    return `${p50.toFixed(1)} / ${p95.toFixed(1)}`;
  };
  console.log(
    `\n| server | ${SEARCH_TERMS.map((t) => `${t} p50 / p95`).join(" | ")} | all p50 / p95 |\n| --- |${" ---: |".repeat(SEARCH_TERMS.length + 1)}`,
  );
  for (const [name, byTerm] of samples) {
    const all = [...byTerm.values()].flat();
    console.log(`| ${name} | ${[...byTerm.values()].map(cell).join(" | ")} | ${cell(all)} |`);
  }
} finally {
  await Promise.all(servers.map(stopServer));
}
