import BetterSqlite3 from "better-sqlite3";
import { Kysely, SqliteDialect, sql } from "kysely";
import { createSqliteStorage } from "@openpractice/sqlite";
import { rmSync } from "node:fs";
const f = "/tmp/stmt.db"; rmSync(f, { force: true }); rmSync(f + "-wal", { force: true });
const s0 = await createSqliteStorage({ filename: f }); await s0.close();
const raw = new BetterSqlite3(f); raw.pragma("journal_mode = WAL"); raw.pragma("synchronous = NORMAL");
raw.prepare("insert into organisations values (1,'o','enterprise',1,'x','x')").run();
const cache = new Map();
const cached = new Proxy(raw, { get(t, p) { if (p === "prepare") return (q) => { let s = cache.get(q); if (!s) cache.set(q, (s = t.prepare(q))); return s; }; const v = Reflect.get(t, p); return typeof v === "function" ? v.bind(t) : v; } });
for (const [name, database] of [["prepare each time", raw], ["cached statements", cached], ["prepare each time", raw], ["cached statements", cached]]) {
  const db = new Kysely({ dialect: new SqliteDialect({ database }) });
  const N = 20000;
  let t = performance.now();
  for (let i = 0; i < N; i++) await db.selectFrom("organisations").selectAll().where("id", "=", 1).executeTakeFirst();
  const sel = (performance.now() - t) / N * 1000;
  t = performance.now();
  for (let i = 0; i < N; i++) await db.insertInto("rate_limit_counters").values({ counter_key: "v2:org:1", window_start: "w", hits: 1 }).onConflict((oc) => oc.columns(["counter_key", "window_start"]).doUpdateSet({ hits: sql`rate_limit_counters.hits + 1` })).returning("hits").executeTakeFirstOrThrow();
  const up = (performance.now() - t) / N * 1000;
  t = performance.now();
  const st = raw.prepare('select * from "organisations" where "id" = ?');
  for (let i = 0; i < N; i++) st.get(1);
  const bare = (performance.now() - t) / N * 1000;
  console.log(`${name}: kysely select ${sel.toFixed(1)} µs, kysely upsert+returning ${up.toFixed(1)} µs, bare prepared select ${bare.toFixed(1)} µs`);
}
