// PostgreSQL search at scale, in process: how much the search's speed depends on the ANALYZE sample, with
// the statistics target of patients.search_text at PostgreSQL's default (100) and at 1,000 (migration 013).
// For each target it runs ANALYZE several times; after each, it prints the planner's estimate of every
// term's matches and times the repository call PatientService makes (the terms rotating).
// See docs/performance.md, "Plans that depend on the ANALYZE sample".
//
//   DATABASE_URL=postgres://… node test/bench/pg-search-estimates.mjs
//
// Env: BENCH_PATIENTS (1000000), BENCH_FIXTURE_URL (reuse a kept fixture database), BENCH_ANALYZES (4 per
// target), BENCH_ROUNDS (30 rounds of the six terms after each ANALYZE). The fixture keeps the target of
// migration 013 when the script ends.
import { createPostgresStorage } from "@openpractice/postgres";
import pg from "pg";
import { buildServerFixture, dropServerDatabases, serverVersion } from "./fixture-server.mjs";
import { SEARCH_TERMS, intEnv, machineLine, repositorySearch, stats } from "./harness.mjs";

const PATIENTS = intEnv("BENCH_PATIENTS", 1_000_000);
const ANALYZES = intEnv("BENCH_ANALYZES", 4);
const ROUNDS = intEnv("BENCH_ROUNDS", 30);
const TARGETS = [
  ["default (100)", -1],
  ["1,000 (migration 013)", 1000],
];
const f1 = (n) => n.toFixed(1);

let url = process.env.BENCH_FIXTURE_URL;
console.log(`${machineLine()}, ${await serverVersion(url ?? process.env.DATABASE_URL)}`);
if (!url) url = (await buildServerFixture(process.env.DATABASE_URL, PATIENTS, { shared: true })).url;

const storage = await createPostgresStorage({ url });
const raw = new pg.Client({ connectionString: url });
await raw.connect();
const list = (term) => repositorySearch(storage, term, 1000);
const estimate = async (term) =>
  (
    await raw.query(
      `explain (format json) select 1 from patients where organisation_id = 1 and status = 'active' and search_text like $1`,
      [`%${term}%`],
    )
  ).rows[0]["QUERY PLAN"][0].Plan["Plan Rows"];

try {
  const actual = {};
  for (const term of SEARCH_TERMS)
    actual[term] = Number(
      (
        await raw.query(
          `select count(*) as n from patients where organisation_id = 1 and status = 'active' and search_text like $1`,
          [`%${term}%`],
        )
      ).rows[0].n,
    );
  console.log(`\nmatches: ${SEARCH_TERMS.map((t) => `${t} ${actual[t]}`).join(", ")}`);
  console.log(
    `\n| target | ANALYZE | estimates (${SEARCH_TERMS.join(", ")}) | worst term p50 / p95 ms | all p50 / p95 ms |\n| --- | ---: | --- | --- | ---: |`,
  );
  for (const [label, target] of TARGETS) {
    await raw.query(`alter table patients alter column search_text set statistics ${target}`);
    for (let a = 1; a <= ANALYZES; a++) {
      await raw.query("analyze patients");
      const estimates = [];
      for (const term of SEARCH_TERMS) estimates.push(await estimate(term));
      for (const term of SEARCH_TERMS) await list(term);
      const byTerm = new Map(SEARCH_TERMS.map((t) => [t, []]));
      for (let r = 0; r < ROUNDS; r++) {
        for (const term of SEARCH_TERMS) {
          const t = performance.now();
          await list(term);
          byTerm.get(term).push(performance.now() - t);
        }
      }
      const perTerm = [...byTerm].map(([t, xs]) => [t, stats(xs)]);
      const [worst, w] = perTerm.reduce((a, b) => (b[1].p95 > a[1].p95 ? b : a));
      const all = stats([...byTerm.values()].flat());
      console.log(
        `| ${label} | ${a} | ${estimates.join(", ")} | ${worst} ${f1(w.p50)} / ${f1(w.p95)} | ${f1(all.p50)} / **${f1(all.p95)}** |`,
      );
    }
  }
} finally {
  await raw.end();
  await storage.close();
  if (!process.env.BENCH_FIXTURE_URL) await dropServerDatabases();
}
