import { buildFixture } from "./fixture.mjs";
import BetterSqlite3 from "better-sqlite3";
import { existsSync } from "node:fs";
const f = "/tmp/benchq.db";
if (!existsSync(f)) await buildFixture(f, Number(process.argv[2] ?? 100000));
const db = new BetterSqlite3(f);
const page = db.prepare(`select * from "patients" where "organisation_id" = ? and "status" = ? and search_text like ? escape '\\' order by "created_at" desc, "id" desc limit ? offset ?`);
const count = db.prepare(`select count(*) as "n" from "patients" where "organisation_id" = ? and "status" = ? and search_text like ? escape '\\'`);
console.log(db.prepare("explain query plan " + page.source).all(1,'active','%x%',25,0));
console.log(db.prepare("explain query plan " + count.source).all(1,'active','%x%'));
for (const t of ["kowal","priya","olivia.tanaka","0142","muller","renee"]) {
  const p = `%${t}%`;
  let s = performance.now(); for (let i=0;i<20;i++) page.all(1,'active',p,25,0); const a=(performance.now()-s)/20;
  s = performance.now(); for (let i=0;i<20;i++) count.get(1,'active',p); const b=(performance.now()-s)/20;
  console.log(t, a.toFixed(2), b.toFixed(2));
}
