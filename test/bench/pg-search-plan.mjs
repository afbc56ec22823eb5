// PostgreSQL search at scale, in process (no HTTP): the exact statements our
// repository sends for GET /v2/patients?search=<term> (captured from pg), their
// plans (EXPLAIN ANALYZE) and timings, per term. See docs/performance.md.
//
//   DATABASE_URL=postgres://… node test/bench/pg-search-plan.mjs
//
// Env: BENCH_PATIENTS (1000000), BENCH_RUNS (100 timed repository calls per term),
// BENCH_FIXTURE_URL (reuse a database an earlier run kept instead of building one),
// BENCH_KEEP (1: keep the fixture database and print its URL), OPENPRACTICE_SEARCH_COUNT_LIMIT (1000; 0 = exact count).
import { createPostgresStorage } from "@openpractice/postgres";
import pg from "pg";
import { buildServerFixture, dropServerDatabases, serverVersion } from "./fixture-server.mjs";
import { SEARCH_TERMS, intEnv, machineLine, repositorySearch } from "./harness.mjs";

const PATIENTS = intEnv("BENCH_PATIENTS", 1_000_000);
const RUNS = intEnv("BENCH_RUNS", 100);
const f2 = (n) => n.toFixed(2);
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)];

let url = process.env.BENCH_FIXTURE_URL;
console.log(`${machineLine()}, ${await serverVersion(url ?? process.env.DATABASE_URL)}`);
if (!url) {
  const started = performance.now();
  url = (await buildServerFixture(process.env.DATABASE_URL, PATIENTS, { shared: true })).url;
  console.log(
    `fixture: ${PATIENTS} patients in ${f2((performance.now() - started) / 1000)} s${process.env.BENCH_KEEP === "1" ? `, kept at ${url}` : ""}`,
  );
}

// Every statement the adapter sends goes through pg.Client#query: record them while `capture` is set.
let capture;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (text, values, ...rest) {
  if (capture && typeof text === "string") capture.push({ text, values });
  return query.call(this, text, values, ...rest);
};

const storage = await createPostgresStorage({ url });
const raw = new pg.Client({ connectionString: url });
await raw.connect();
// The count bounded like the runtime's default.
const COUNT_LIMIT = Number(process.env.OPENPRACTICE_SEARCH_COUNT_LIMIT ?? 1000) || undefined;
const list = (term) => repositorySearch(storage, term, COUNT_LIMIT);

try {
  const sizes = (
    await raw.query(
      `select relname, pg_relation_size(c.oid) as b from pg_class c where relname in ('patients', 'patients_search_keys_ix', 'patients_org_status_created_ix')`,
    )
  ).rows;
  console.log(`sizes: ${sizes.map((r) => `${r.relname} ${f2(Number(r.b) / 2 ** 20)} MiB`).join(", ")}`);
  const all = [];
  console.log(
    `\n| term | matches | each statement, in the order sent (p50 ms) | list() p50 | list() p95 |\n| --- | ---: | --- | ---: | ---: |`,
  );
  const plans = [];
  for (const term of SEARCH_TERMS) {
    capture = [];
    const { total } = await list(term);
    const statements = capture;
    capture = undefined;
    for (let i = 0; i < 5; i++) await list(term);
    const times = [];
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      await list(term);
      times.push(performance.now() - t);
    }
    all.push(...times);
    const each = [];
    for (const s of statements) {
      const ts = [];
      for (let i = 0; i < 20; i++) {
        const t = performance.now();
        await raw.query(s.text, s.values);
        ts.push(performance.now() - t);
      }
      each.push(pct(ts, 50));
      const plan = (await raw.query(`explain (analyze, buffers) ${s.text}`, s.values)).rows.map((r) => r["QUERY PLAN"]);
      plans.push({ term, text: s.text, values: s.values, plan });
    }
    console.log(`| ${term} | ${total} | ${each.map(f2).join(", ")} | ${f2(pct(times, 50))} | ${f2(pct(times, 95))} |`);
  }
  console.log(`| all terms | | | ${f2(pct(all, 50))} | ${f2(pct(all, 95))} |`);
  console.log(
    `\ntarget search p95 < 20 ms (repository, in process) at ${PATIENTS} patients: ${f2(pct(all, 95))} ms -> ${pct(all, 95) < 20 ? "holds" : "MISSED"}`,
  );
  for (const p of plans)
    console.log(
      `\n-- ${p.term}: ${p.text.replace(/\s+/g, " ")}\n   params ${JSON.stringify(p.values)}\n${p.plan.map((l) => `   ${l}`).join("\n")}`,
    );
} finally {
  pg.Client.prototype.query = query;
  await raw.end();
  await storage.close();
  if (!process.env.BENCH_FIXTURE_URL && process.env.BENCH_KEEP !== "1") await dropServerDatabases();
}
