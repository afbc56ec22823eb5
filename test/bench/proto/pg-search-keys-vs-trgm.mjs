// PROTOTYPE, not product code: the search keys (migration 033) against the table-wide pg_trgm index they replaced,
// paired in process on one kept PostgreSQL fixture. The fixture stays as it is (the keys); a copy of it gets
// migration 033's own down() (the pg_trgm index back, the keys index gone) and is searched without the keyed
// search, as the adapter searched before 033. Each round sends every term to both, in alternating order.
// The two indexes live in two databases: in one, the planner ANDs them.
//
//   BENCH_FIXTURE_URL=postgres://…/opbench_…_fixture node test/bench/proto/pg-search-keys-vs-trgm.mjs
//
// Env: BENCH_ROUNDS (200), OPENPRACTICE_SEARCH_COUNT_LIMIT (1000, as the runtime). The copy is named
// <fixture>_trgm and kept for the next run.
import { KyselyStorage } from "@openpractice/kysely";
import { createPostgresStorage, patientSearchKeysMigration, postgresProfile } from "@openpractice/postgres";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { withDatabase } from "../fixture-server.mjs";
import { SEARCH_TERMS, intEnv, machineLine, repositorySearch } from "../harness.mjs";

const ROUNDS = intEnv("BENCH_ROUNDS", 200);
const COUNT_LIMIT = Number(process.env.OPENPRACTICE_SEARCH_COUNT_LIMIT ?? 1000) || undefined;
const f2 = (n) => n.toFixed(2);
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)];

const keysUrl = process.env.BENCH_FIXTURE_URL;
if (!keysUrl) throw new Error("BENCH_FIXTURE_URL: a kept PostgreSQL fixture (pg-search-plan.mjs with BENCH_KEEP=1)");
const source = new URL(keysUrl).pathname.slice(1);
const trgmName = `${source}_trgm`;
const trgmUrl = withDatabase(keysUrl, trgmName);

const admin = new pg.Client({ connectionString: withDatabase(keysUrl, "postgres") });
await admin.connect();
const exists = (await admin.query("select 1 from pg_database where datname = $1", [trgmName])).rowCount > 0;
if (!exists) {
  const t0 = performance.now();
  await admin.query(`create database ${trgmName} template ${source}`);
  const db = new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: trgmUrl, max: 1 }) }) });
  await patientSearchKeysMigration.down(db);
  await db.destroy();
  const c = new pg.Client({ connectionString: trgmUrl });
  await c.connect();
  await c.query("vacuum analyze patients");
  await c.end();
  console.log(`copy ${trgmName} with the pg_trgm index made in ${f2((performance.now() - t0) / 1000)} s`);
}
await admin.end();

console.log(machineLine());
const keys = await createPostgresStorage({ url: keysUrl, migrate: false, maxConnections: 4 });
// The adapter's profile without the keyed search: the shared LIKE search, which the pg_trgm index serves.
const trgm = new KyselyStorage({
  db: new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: trgmUrl, max: 4 }) }) }),
  profile: { ...postgresProfile, patientSearch: undefined },
  ownsConnection: true,
});
const search = async (which, term) => {
  const t = performance.now();
  const page = await repositorySearch(which === "keys" ? keys : trgm, term, COUNT_LIMIT);
  return { page, ms: performance.now() - t };
};

try {
  for (const term of SEARCH_TERMS) {
    const a = (await search("keys", term)).page;
    const b = (await search("trgm", term)).page;
    const ids = (p) => p.patients.map((x) => x.id).join(",");
    if (a.total !== b.total || ids(a) !== ids(b))
      throw new Error(`${term}: the two databases answer differently (${a.total} vs ${b.total})`);
    for (let i = 0; i < 5; i++) {
      await search("keys", term);
      await search("trgm", term);
    }
  }
  const times = { keys: new Map(), trgm: new Map() };
  for (const t of SEARCH_TERMS) for (const m of Object.values(times)) m.set(t, []);
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? ["keys", "trgm"] : ["trgm", "keys"];
    for (const term of SEARCH_TERMS)
      for (const which of order) times[which].get(term).push((await search(which, term)).ms);
  }
  console.log(
    `\n${ROUNDS} rounds, each term to both in turn (order alternating per round), in process\n\n| term | keys p50 / p95 ms | pg_trgm p50 / p95 ms |\n| --- | ---: | ---: |`,
  );
  const all = { keys: [], trgm: [] };
  for (const term of SEARCH_TERMS) {
    const k = times.keys.get(term);
    const g = times.trgm.get(term);
    all.keys.push(...k);
    all.trgm.push(...g);
    console.log(`| ${term} | ${f2(pct(k, 50))} / ${f2(pct(k, 95))} | ${f2(pct(g, 50))} / ${f2(pct(g, 95))} |`);
  }
  console.log(
    `| all terms | ${f2(pct(all.keys, 50))} / ${f2(pct(all.keys, 95))} | ${f2(pct(all.trgm, 50))} / ${f2(pct(all.trgm, 95))} |`,
  );
  console.log(`\nkeys ÷ pg_trgm p95: ${f2(pct(all.keys, 95) / pct(all.trgm, 95))}`);
} finally {
  await keys.close();
  await trgm.close();
}
