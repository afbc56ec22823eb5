import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync, statSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import BetterSqlite3 from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { createSqliteStorage } from "./sqlite-storage.js";
import { WalCheckpointer, type WalCheckpointOptions } from "./wal-checkpointer.js";

const folder = mkdtempSync(join(tmpdir(), "op-wal-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
let n = 0;

/** A WAL database with one table of blobs; writes go to the log until something checkpoints. */
function walDatabase() {
  const database = new BetterSqlite3(join(folder, `db-${n++}.sqlite`));
  database.pragma("journal_mode = WAL");
  database.pragma("synchronous = NORMAL");
  database.exec("create table blobs (id integer primary key, body blob)");
  return database;
}
const write = (database: BetterSqlite3.Database, megabytes: number) => {
  const insert = database.prepare("insert into blobs (body) values (?)");
  for (let i = 0; i < megabytes * 16; i++) insert.run(Buffer.alloc(64 * 1024, i % 251));
};
const size = (file: string) => statSync(file, { throwIfNoEntry: false })?.size ?? 0;
const autocheckpoint = (database: BetterSqlite3.Database) => database.pragma("wal_autocheckpoint", { simple: true });
async function until(condition: () => boolean, what: string, ms = 10_000) {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A fresh WAL database with a checkpointer on it, both closed after `body` whatever it does. */
async function withCheckpointer(
  options: WalCheckpointOptions,
  body: (database: BetterSqlite3.Database, checkpointer: WalCheckpointer) => Promise<void>,
) {
  const database = walDatabase();
  const checkpointer = new WalCheckpointer(database, options);
  try {
    await body(database, checkpointer);
  } finally {
    await checkpointer.close();
    database.close();
  }
}

describe("WalCheckpointer", () => {
  it("copies the log into the database from its thread, while the serving connection only backstops", async () => {
    await withCheckpointer({ intervalMs: 20, startBytes: 256 * 1024 }, async (database, checkpointer) => {
      expect(autocheckpoint(database)).toBe(10_000);
      const before = size(database.name);
      // 3 MB in 48 commits: under the backstop (about 40 MB), so the serving connection never checkpoints by itself.
      write(database, 3);
      expect(size(database.name)).toBe(before);
      const after = checkpointer.stats().checkpoints;
      // Two checkpoints after the last commit: the second starts after it, so it copies the log to its end.
      await until(() => checkpointer.stats().checkpoints >= after + 2, "the thread's checkpoints");
      expect(checkpointer.stats()).toMatchObject({ threadStarted: true, failures: 0 });
      const { logFrames, checkpointedFrames } = checkpointer.stats();
      expect(logFrames).toBeGreaterThan(700);
      expect(checkpointedFrames).toBe(logFrames);
      expect(size(database.name)).toBeGreaterThan(before + 3 * 1024 * 1024);
      // The copy is whole: the database file alone, without its log, holds every row.
      const copy = join(folder, `copy-${n++}.sqlite`);
      copyFileSync(database.name, copy);
      const alone = new BetterSqlite3(copy, { readonly: true });
      expect(alone.prepare("select count(*) as n, sum(length(body)) as bytes from blobs").get()).toEqual({
        n: 48,
        bytes: 48 * 64 * 1024,
      });
      alone.close();
    });
  });

  it("starts no thread for a database whose log stays small", async () => {
    await withCheckpointer({ intervalMs: 10 }, async (database, checkpointer) => {
      database.prepare("insert into blobs (body) values (?)").run(Buffer.alloc(1000));
      await new Promise((r) => setTimeout(r, 150));
      expect(checkpointer.stats()).toMatchObject({ threadStarted: false, checkpoints: 0 });
    });
  });

  it("gives the checkpoints back to the serving connection when the thread cannot open the database", async () => {
    await withCheckpointer({ intervalMs: 20, startBytes: 1 }, async (database, checkpointer) => {
      write(database, 1);
      unlinkSync(database.name); // the serving connection keeps its descriptor; the thread finds no file
      await until(() => checkpointer.stats().failures > 0, "the thread's failure");
      expect(checkpointer.stats().lastError).toMatch(/unable to open|no such file|SQLITE_CANTOPEN/i);
      expect(autocheckpoint(database)).toBe(1_000);
    });
  });

  it("lets go of the database when its owner closes the handle without closing the checkpointer", async () => {
    const database = walDatabase();
    const checkpointer = new WalCheckpointer(database, { intervalMs: 20, startBytes: 1 });
    write(database, 1);
    await until(() => checkpointer.stats().checkpoints > 0, "the thread's first checkpoint");
    const log = `${database.name}-wal`;
    database.close();
    // The thread's connection, left last, would keep the log; once it closes too, SQLite empties and removes it.
    await until(() => size(log) === 0, "the log's removal");
    await checkpointer.close();
  });

  it("never keeps the process alive: a script that writes and never closes exits by itself", () => {
    const dist = pathToFileURL(join(import.meta.dirname, "../dist/index.js")).href;
    const packageJson = join(import.meta.dirname, "../package.json");
    // A relative file name, then another working directory: the checkpoints still find the database.
    const script = `
      import { createRequire } from "node:module";
      import { WalCheckpointer } from ${JSON.stringify(dist)};
      const BetterSqlite3 = createRequire(${JSON.stringify(packageJson)})("better-sqlite3");
      const database = new BetterSqlite3("alive.sqlite");
      database.pragma("journal_mode = WAL");
      database.exec("create table t (b blob)");
      const checkpointer = new WalCheckpointer(database, { intervalMs: 10, startBytes: 1 });
      process.chdir("/");
      for (let i = 0; i < 64; i++) database.prepare("insert into t values (?)").run(Buffer.alloc(65536));
      // Printed once the thread has checkpointed (a loaded machine may take longer than any fixed wait); from then
      // only the checkpointer's own timers and thread are left, and the process must still exit by itself.
      const waiting = setInterval(() => {
        if (checkpointer.stats().checkpoints === 0) return;
        clearInterval(waiting);
        console.log(JSON.stringify(checkpointer.stats()));
      }, 20);`;
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: folder,
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ threadStarted: true, failures: 0 });
    expect(JSON.parse(run.stdout).checkpoints).toBeGreaterThan(0);
  });
});

describe("createSqliteStorage's checkpoints", () => {
  it("moves them to the thread for a database file unless told not to", async () => {
    const own = new BetterSqlite3(join(folder, "storage.sqlite"));
    const threaded = await createSqliteStorage({ database: own });
    expect(autocheckpoint(own)).toBe(10_000);
    await threaded.close();
    // The handle is the caller's: it gets its own setting back.
    expect(autocheckpoint(own)).toBe(1_000);
    const inline = await createSqliteStorage({ database: own, walCheckpoint: false });
    expect(autocheckpoint(own)).toBe(1_000);
    await inline.close();
    own.close();
  });
});
