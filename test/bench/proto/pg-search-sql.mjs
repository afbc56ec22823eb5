// PROTOTYPE (not part of the benchmark): alternatives for the search count and page on
// PostgreSQL, timed in SQL on a kept fixture (pg-search-plan.mjs with BENCH_KEEP=1).
//   BENCH_FIXTURE_URL=postgres://…/opbench_… node test/bench/proto/pg-search-sql.mjs [variant…]
import pg from "pg";
import { SEARCH_TERMS } from "../harness.mjs";

const db = new pg.Client({ connectionString: process.env.BENCH_FIXTURE_URL });
await db.connect();
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)];
const like = (t) => `%${t.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const WHERE = `organisation_id = $1 and status = $2 and search_text like $3 escape '\\'`;
async function time(text, term, runs = 30) {
  const params = [1, "active", like(term)];
  let out;
  for (let i = 0; i < 3; i++) out = await db.query(text, params);
  const ts = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await db.query(text, params);
    ts.push(performance.now() - t);
  }
  return { p50: pct(ts, 50), p95: pct(ts, 95), out: out.rows };
}
const show = async (label, text, setup = [], teardown = []) => {
  for (const s of setup) await db.query(s);
  const cells = [];
  for (const term of SEARCH_TERMS) {
    const r = await time(text, term);
    cells.push(`${term} ${r.p50.toFixed(1)}/${r.p95.toFixed(1)} (${Object.values(r.out[0] ?? {})[0]})`);
  }
  for (const s of teardown) await db.query(s);
  console.log(`${label.padEnd(28)} ${cells.join(" | ")}`);
};
// A whole list() as the repository would send it (page, then count; or both at once on two
// connections), with the terms rotating as in the benchmark, so the cache sees the real mix.
const other = new pg.Client({ connectionString: process.env.BENCH_FIXTURE_URL });
await other.connect();
const PAGE = `select * from patients where ${WHERE} order by created_at desc, id desc limit 25 offset 0`;
const COUNT = `select count(*) as n from patients where ${WHERE}`;
const CAPPED = `select count(*) as n from (select 1 from patients where ${WHERE} limit 1001) c`;
async function listShape(label, count, concurrent, runs = 300) {
  const by = Object.fromEntries(SEARCH_TERMS.map((t) => [t, []]));
  for (let i = -30; i < runs; i++) {
    const term = SEARCH_TERMS[(i + 30) % SEARCH_TERMS.length];
    const params = [1, "active", like(term)];
    const t = performance.now();
    if (concurrent) await Promise.all([db.query(PAGE, params), other.query(count, params)]);
    else {
      await db.query(PAGE, params);
      await db.query(count, params);
    }
    if (i >= 0) by[term].push(performance.now() - t);
  }
  const all = Object.values(by).flat();
  console.log(
    `${label.padEnd(28)} ${SEARCH_TERMS.map((t) => `${t} ${pct(by[t], 50).toFixed(1)}/${pct(by[t], 95).toFixed(1)}`).join(" | ")} | all ${pct(all, 50).toFixed(1)}/${pct(all, 95).toFixed(1)}`,
  );
}
const wanted = process.argv.slice(2);
const variants = {
  count: () => show("count (today)", `select count(*) as n from patients where ${WHERE}`),
  "count-parallel": () =>
    show(
      "count, parallel bitmap",
      `select count(*) as n from patients where ${WHERE}`,
      [
        "set parallel_setup_cost = 0",
        "set parallel_tuple_cost = 0",
        "set min_parallel_table_scan_size = 0",
        "set max_parallel_workers_per_gather = 2",
      ],
      [
        "reset parallel_setup_cost",
        "reset parallel_tuple_cost",
        "reset min_parallel_table_scan_size",
        "reset max_parallel_workers_per_gather",
      ],
    ),
  "count-capped": () =>
    show("count capped at 1001", `select count(*) as n from (select 1 from patients where ${WHERE} limit 1001) c`),
  "count-seqscan": () =>
    show(
      "count, no index (seq scan)",
      `select count(*) as n from patients where ${WHERE}`,
      ["set enable_bitmapscan = off", "set enable_indexscan = off"],
      ["reset enable_bitmapscan", "reset enable_indexscan"],
    ),
  "count-narrow": async () => {
    await db.query(
      `create table if not exists scratch_search as select id, organisation_id, status, created_at, search_text from patients`,
    );
    await db.query(
      `create index if not exists scratch_search_trgm_ix on scratch_search using gin (search_text gin_trgm_ops)`,
    );
    await db.query(`vacuum analyze scratch_search`);
    await show("count on a narrow table", `select count(*) as n from scratch_search where ${WHERE}`);
  },
  page: () => show("page (today)", `select * from patients where ${WHERE} order by created_at desc, id desc limit 25`),
  "page+count-one": () =>
    show(
      "page + count(*) over ()",
      `select *, count(*) over () as total from patients where ${WHERE} order by created_at desc, id desc limit 25`,
    ),
  list: () => listShape("list: page; count (today)", COUNT, false),
  "list-concurrent": () => listShape("list: page || count", COUNT, true),
  "list-capped": () => listShape("list: page; capped count", CAPPED, false),
  "list-capped-concurrent": () => listShape("list: page || capped count", CAPPED, true),
};
for (const [name, run] of Object.entries(variants)) if (wanted.length === 0 || wanted.includes(name)) await run();
await db.end();
await other.end();
