import BetterSqlite3 from "better-sqlite3";
import { copyFileSync } from "node:fs";
const terms = ["kowal","priya","olivia.tanaka","0142","muller","renee"];
function bench(db, label, pageSql, countSql, param = (t) => `%${t}%`) {
  const page = db.prepare(pageSql), count = db.prepare(countSql);
  const out = [];
  for (const t of terms) {
    const p = param(t);
    page.all(p); count.get(p);
    let s = performance.now(); for (let i=0;i<10;i++) page.all(p); const a=(performance.now()-s)/10;
    s = performance.now(); let n; for (let i=0;i<10;i++) n = count.get(p).n; const b=(performance.now()-s)/10;
    out.push(`${t}:${a.toFixed(1)}+${b.toFixed(1)}(n=${n})`);
  }
  console.log(label.padEnd(22), out.join("  "));
  console.log("   plan page:", db.prepare("explain query plan " + pageSql).all(param("x")).map(r=>r.detail).join(" | "));
  console.log("   plan count:", db.prepare("explain query plan " + countSql).all(param("x")).map(r=>r.detail).join(" | "));
}
const W = `organisation_id = 1 and status = 'active'`;
const ORD = `order by created_at desc, id desc limit 25 offset 0`;
const LIKE = `search_text like ? escape '\\'`;
copyFileSync("/tmp/benchq.db", "/tmp/benchq2.db");
const db = new BetterSqlite3("/tmp/benchq2.db");
db.pragma("journal_mode = WAL");
bench(db, "A current", `select * from patients where ${W} and ${LIKE} ${ORD}`, `select count(*) n from patients where ${W} and ${LIKE}`);
bench(db, "B count NOT INDEXED", `select * from patients where ${W} and ${LIKE} ${ORD}`, `select count(*) n from patients not indexed where ${W} and ${LIKE}`);
db.exec("create index cov_ix on patients(organisation_id, status, created_at, id, search_text)");
bench(db, "C covering ix", `select * from patients where ${W} and ${LIKE} ${ORD}`, `select count(*) n from patients indexed by cov_ix where ${W} and ${LIKE}`);
db.exec("drop index cov_ix");
let s = performance.now();
db.exec(`create virtual table patients_search using fts5(search_text, content='patients', content_rowid='id', tokenize='trigram')`);
db.exec(`insert into patients_search(patients_search) values('rebuild')`);
console.log("fts build ms", (performance.now()-s).toFixed(0));
const FTS_IN = `id in (select rowid from patients_search where patients_search match ?)`;
const q = (t) => `"${t.replace(/"/g,'""')}"`;
bench(db, "D fts match IN", `select * from patients where ${W} and ${FTS_IN} ${ORD}`, `select count(*) n from patients where ${W} and ${FTS_IN}`, q);
bench(db, "E fts join", `select p.* from patients_search s join patients p on p.id = s.rowid where s.patients_search match ? and p.${W.replace("and status","and p.status")} order by p.created_at desc, p.id desc limit 25`, `select count(*) n from patients_search s join patients p on p.id = s.rowid where s.patients_search match ? and p.organisation_id = 1 and p.status='active'`, q);
bench(db, "F fts like IN", `select * from patients where ${W} and id in (select rowid from patients_search where search_text like ? escape '\\') ${ORD}`, `select count(*) n from patients where ${W} and id in (select rowid from patients_search where search_text like ? escape '\\')`);
