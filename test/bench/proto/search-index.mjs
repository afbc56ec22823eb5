// PROTOTYPE: where the time of GET /v2/patients?search= goes in SQLite, and what
// an FTS5 trigram index changes. Plain SQL through better-sqlite3, no HTTP.
//   node test/bench/proto/search-index.mjs        (BENCH_PATIENTS, default 100000)
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { buildFixture } from "../fixture.mjs";
import { SEARCH_TERMS, intEnv, machineLine, temp } from "../harness.mjs";
import { installTrigramIndex, trigramMatch } from "./compose.mjs";

const PATIENTS = intEnv("BENCH_PATIENTS", 100_000);
const file = join(temp, "search.db");
await buildFixture(file, PATIENTS);
const db = new BetterSqlite3(file);
db.pragma("journal_mode = WAL");

const FILTER = `organisation_id = 1 AND status = 'active'`;
const ORDER = `ORDER BY created_at DESC, id DESC LIMIT 25 OFFSET 0`;
// The statements our repository sends today (adapters/kysely patient-repository.ts list()).
const likePage = `SELECT * FROM patients WHERE ${FILTER} AND search_text LIKE ? ESCAPE '\\' ${ORDER}`;
const likeCount = `SELECT count(*) AS n FROM patients WHERE ${FILTER} AND search_text LIKE ? ESCAPE '\\'`;
// Driven by the trigram index: the FTS rowids join patients; only the page's rows are read in full.
const MATCHING = `FROM patients_search JOIN patients p ON p.id = patients_search.rowid WHERE patients_search MATCH ? AND p.organisation_id = 1 AND p.status = 'active'`;
const ftsPage = `SELECT * FROM patients WHERE id IN (SELECT p.id ${MATCHING} ORDER BY p.created_at DESC, p.id DESC LIMIT 25 OFFSET 0) ${ORDER}`;
const ftsCount = `SELECT count(*) AS n ${MATCHING}`;

const like = (t) => `%${t}%`;
const phrase = (t) => trigramMatch([t]);
const plan = (q, arg) =>
  db
    .prepare(`EXPLAIN QUERY PLAN ${q}`)
    .all(arg)
    .map((r) => r.detail)
    .join("; ");
function time(q, arg, runs = 15) {
  const stmt = db.prepare(q);
  stmt.all(arg);
  const started = performance.now();
  let out;
  for (let i = 0; i < runs; i++) out = stmt.all(arg);
  return { ms: (performance.now() - started) / runs, out };
}

console.log(`${machineLine()}, ${PATIENTS} patients`);
console.log(`\nplan, LIKE page:  ${plan(likePage, "%x%")}`);
console.log(`plan, LIKE count: ${plan(likeCount, "%x%")}`);
const measure = (label, page, count, arg) => {
  const rows = [];
  for (const term of SEARCH_TERMS) {
    const p = time(page, arg(term));
    const c = time(count, arg(term));
    rows.push({ term, page: p.ms, count: c.ms, n: c.out[0].n, ids: p.out.map((r) => r.id).join(",") });
  }
  console.log(`\n${label}\n| term | matches | page ms | count ms | sum ms |\n| --- | ---: | ---: | ---: | ---: |`);
  for (const r of rows)
    console.log(
      `| ${r.term} | ${r.n} | ${r.page.toFixed(2)} | ${r.count.toFixed(2)} | ${(r.page + r.count).toFixed(2)} |`,
    );
  return rows;
};
const before = measure("LIKE '%term%' (today)", likePage, likeCount, like);

let started = performance.now();
installTrigramIndex(db);
const buildMs = performance.now() - started;
const size = (name) => db.prepare("SELECT sum(pgsize) AS b FROM dbstat WHERE name LIKE ?").get(`${name}%`)?.b ?? 0;
console.log(
  `\nFTS5 trigram index: built in ${(buildMs / 1000).toFixed(1)} s, ${(size("patients_search") / 2 ** 20).toFixed(1)} MiB (patients table ${(size("patients") / 2 ** 20 - size("patients_search") / 2 ** 20).toFixed(1)} MiB with its indexes)`,
);
console.log(`plan, FTS page:  ${plan(ftsPage, '"x"')}`);
console.log(`plan, FTS count: ${plan(ftsCount, '"x"')}`);
const after = measure("FTS5 trigram MATCH", ftsPage, ftsCount, phrase);
const same = before.every((b, i) => b.n === after[i].n && b.ids === after[i].ids);
console.log(`\nsame matches and same first page as LIKE: ${same ? "yes" : "NO"}`);

// What the triggers add to each registration: 2,000 inserts without and with them.
const insertCost = (label) => {
  const cols = db.prepare("SELECT * FROM patients LIMIT 1").get();
  delete cols.id;
  const stmt = db.prepare(
    `INSERT INTO patients (${Object.keys(cols).join(", ")}) VALUES (${Object.keys(cols)
      .map((k) => `@${k}`)
      .join(", ")})`,
  );
  started = performance.now();
  for (let i = 0; i < 2000; i++)
    stmt.run({ ...cols, identity_key: `${label}-${i}`, search_text: `${cols.search_text} ${label}${i}` });
  return ((performance.now() - started) / 2000) * 1000;
};
const withTriggers = insertCost("with");
db.exec("DROP TRIGGER patients_search_ai");
const withoutTriggers = insertCost("without");
console.log(
  `insert, one autocommit statement: ${withoutTriggers.toFixed(0)} µs without the trigger, ${withTriggers.toFixed(0)} µs with it`,
);
db.close();
