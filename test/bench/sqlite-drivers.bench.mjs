// node:sqlite against better-sqlite3 with the same statements: inserts in transactions, and indexed reads.
//   node test/bench/sqlite-drivers.bench.mjs      (npm run bench:sqlite-drivers)
// Each driver gets a fresh file database in WAL mode with synchronous=NORMAL, as the SQLite adapter sets it.
// Prints one JSON line per driver and round, then the medians and the ratio node:sqlite / better-sqlite3.
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";

const require = createRequire(import.meta.url);
const ROWS = Number(process.env.BENCH_ROWS ?? 50_000);
const BATCH = 500;
const READS = Number(process.env.BENCH_READS ?? 50_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const NAMES = ["Okafor", "Reyes", "Marsh", "Brandt", "Kowalski", "Nguyen", "Smith", "Garcia", "Müller", "Rossi"];

/** Each driver opened behind the same three calls: exec(sql), prepare(sql) → { run, get, all }. */
const drivers = {
  "better-sqlite3": (file) => {
    const Database = require("better-sqlite3");
    const db = new Database(file);
    return { exec: (sql) => db.exec(sql), prepare: (sql) => db.prepare(sql), close: () => db.close() };
  },
  "node:sqlite": (file) => {
    const { DatabaseSync } = require("node:sqlite");
    const db = new DatabaseSync(file);
    return { exec: (sql) => db.exec(sql), prepare: (sql) => db.prepare(sql), close: () => db.close() };
  },
};

function round(open) {
  const dir = mkdtempSync(join(tmpdir(), "openpractice-sqlite-bench-"));
  const db = open(join(dir, "bench.db"));
  try {
    db.exec("pragma journal_mode = wal; pragma synchronous = normal;");
    db.exec(
      "create table patients (id integer primary key, organisation_id integer not null, last_name text not null, first_name text not null, date_of_birth text not null)",
    );
    db.exec("create index patients_org_last on patients (organisation_id, last_name)");
    const insert = db.prepare(
      "insert into patients (organisation_id, last_name, first_name, date_of_birth) values (?, ?, ?, ?)",
    );
    const begin = db.prepare("begin");
    const commit = db.prepare("commit");
    let started = performance.now();
    for (let i = 0; i < ROWS; i += BATCH) {
      begin.run();
      for (let j = i; j < Math.min(i + BATCH, ROWS); j++)
        insert.run(1 + (j % 5), NAMES[j % NAMES.length], `First${j}`, `19${50 + (j % 50)}-0${1 + (j % 9)}-1${j % 10}`);
      commit.run();
    }
    const insertMs = performance.now() - started;

    const byId = db.prepare("select * from patients where id = ?");
    const byName = db.prepare(
      "select id, first_name from patients where organisation_id = ? and last_name = ? order by id limit 10",
    );
    let checksum = 0;
    started = performance.now();
    for (let i = 0; i < READS; i++) {
      if (i % 2 === 0) checksum += byId.get(1 + ((i * 7919) % ROWS)).id;
      else checksum += byName.all(1 + (i % 5), NAMES[i % NAMES.length]).length;
    }
    const readMs = performance.now() - started;
    return { insertMs, readMs, checksum };
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const results = {};
for (let r = 0; r < ROUNDS; r++) {
  for (const [name, open] of Object.entries(drivers)) {
    const result = round(open);
    (results[name] ??= []).push(result);
    console.log(
      JSON.stringify({
        driver: name,
        round: r + 1,
        rows: ROWS,
        reads: READS,
        insert_ms: Math.round(result.insertMs),
        read_ms: Math.round(result.readMs),
        checksum: result.checksum,
      }),
    );
  }
}
const summary = Object.fromEntries(
  Object.entries(results).map(([name, runs]) => [
    name,
    {
      insert_ms: Math.round(median(runs.map((x) => x.insertMs))),
      read_ms: Math.round(median(runs.map((x) => x.readMs))),
    },
  ]),
);
const ratio = (key) => Number((summary["node:sqlite"][key] / summary["better-sqlite3"][key]).toFixed(2));
console.log(
  JSON.stringify({
    node: process.versions.node,
    medians: summary,
    "node:sqlite / better-sqlite3": { insert: ratio("insert_ms"), read: ratio("read_ms") },
  }),
);
