// Prototype: PostgreSQL search through a GIN index over every word's 8-character windows (a tsvector of
// substr(word, i, 8) for each position i; a term of up to 8 characters is then an exact prefix match, a longer
// one the AND of its windows plus LIKE), against today's trigram SQL, in process, page and bounded count sent
// together, terms rotating. Not used by the adapters: see docs/performance.md for why.
//
//   DATABASE_URL=<a kept 1,000,000-patient fixture> node test/bench/proto/pg-search-windows.mjs
//
// The first run creates op_search_windows() and patients_search_win_ix on that database (about 5 minutes and
// 583 MB at 1,000,000 patients); BENCH_DROP=1 drops them at the end.
import pg from "pg";
import { SEARCH_TERMS } from "../harness.mjs";

const url = process.env.DATABASE_URL;
const pool = new pg.Pool({ connectionString: url, max: 4 });
const RUNS = Number(process.env.BENCH_RUNS ?? 600);
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)];
const like = (t) => `%${t.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const W = 8;
const quote = (s) => `'${s.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`;
function tsq(term) {
  const chars = [...term];
  if (chars.length <= W) return `${quote(term)}:*`;
  const parts = [];
  for (let i = 0; i + W <= chars.length; i += W) parts.push(chars.slice(i, i + W).join(""));
  if (chars.length % W !== 0) parts.push(chars.slice(chars.length - W).join(""));
  return parts.map(quote).join(" & ");
}
const setup = new pg.Client({ connectionString: url });
await setup.connect();
await setup.query(`create or replace function op_search_windows(t text) returns tsvector language sql immutable parallel safe strict cost 1000 as $$
  select array_to_tsvector(array(select distinct substr(w, i, 8) from unnest(string_to_array(t, ' ')) w, generate_series(1, length(w)) i)) $$`);
if ((await setup.query(`select 1 from pg_class where relname = 'patients_search_win_ix'`)).rowCount === 0) {
  const started = performance.now();
  await setup.query(`set maintenance_work_mem = '1GB'`);
  await setup.query(`create index patients_search_win_ix on patients using gin (op_search_windows(search_text))`);
  await setup.query(`analyze patients`);
  console.log(`patients_search_win_ix built in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}
const size = (await setup.query(`select pg_size_pretty(pg_relation_size('patients_search_win_ix')) as s`)).rows[0].s;
console.log(`patients_search_win_ix: ${size}`);
const trgm = {
  page: (t) =>
    pool.query(
      `select * from patients where organisation_id = $1 and status = $2 and search_text like $3 escape '\\' order by created_at desc, id desc limit 26 offset 0`,
      [1, "active", like(t)],
    ),
  count: (t) =>
    pool.query(
      `select count(*) as n from (select 1 from patients where organisation_id = $1 and status = $2 and search_text like $3 escape '\\' limit 1001) m`,
      [1, "active", like(t)],
    ),
};
// A term of up to 8 characters is matched exactly by the prefix query; a longer one needs LIKE to check
// its windows line up (written so the trigram index cannot join in with a BitmapAnd).
const recheck = (t) => ([...t].length > W ? `and (search_text || '') like $3 escape '\\'` : `and $3::text is not null`);
const win = {
  page: (t) =>
    pool.query(
      `select * from patients where organisation_id = $1 and status = $2 and op_search_windows(search_text) @@ $4::tsquery ${recheck(t)} order by created_at desc, id desc limit 26 offset 0`,
      [1, "active", like(t), tsq(t)],
    ),
  count: (t) =>
    pool.query(
      `select count(*) as n from (select from patients where organisation_id = $1 and status = $2 and op_search_windows(search_text) @@ $4::tsquery ${recheck(t)} limit 1001) m`,
      [1, "active", like(t), tsq(t)],
    ),
};
async function measure(name, s) {
  const all = [];
  const by = new Map(SEARCH_TERMS.map((t) => [t, []]));
  for (let i = 0; i < RUNS + 60; i++) {
    const t = SEARCH_TERMS[i % SEARCH_TERMS.length];
    const started = performance.now();
    const [, c] = await Promise.all([s.page(t), s.count(t)]);
    const ms = performance.now() - started;
    if (i >= 60) all.push(ms), by.get(t).push(ms);
    if (i < 6) by.get(t).n = c.rows[0].n;
  }
  console.log(
    `${name}: p50 ${pct(all, 50).toFixed(2)} p95 ${pct(all, 95).toFixed(2)} | ` +
      [...by].map(([t, xs]) => `${t}(${xs.n}) ${pct(xs, 50).toFixed(1)}/${pct(xs, 95).toFixed(1)}`).join(", "),
  );
}
for (let r = 0; r < 2; r++) {
  await measure("trigram", trgm);
  await measure("windows", win);
}
if (process.env.BENCH_DROP === "1")
  await setup.query(`drop index patients_search_win_ix; drop function op_search_windows(text)`);
await setup.end();
await pool.end();
