import { existsSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { join } from "node:path";
import { signAccessToken } from "@openpractice/runtime";
import BetterSqlite3 from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir } from "../support/temp-dir.js";
import { runCli, runCliAsync, startServe, stopServe, type ServeProcess } from "./cli-process.js";
import { patientsIn } from "./patients-in.js";

const SECRET = "restore-live-secret-0123456789-abcdefghij";
const env = { OPENPRACTICE_JWT_SECRET: SECRET, OPENPRACTICE_PLAN_LIMITS: '{"free":1000000}' };

// A restore under a running server would have it serve the restored data from stale caches and hand out ids the
// restored data already uses: restore refuses while any process has the database open, however it was started.
describe("openpractice restore refuses a database another process has open", () => {
  let temp: ReturnType<typeof makeTempDir>;
  let serve: ServeProcess | undefined;
  afterEach(async () => {
    await stopServe(serve);
    serve = undefined;
    temp?.remove();
  });

  /** A database with a backup of it, then one more patient in the database (so a restore would be visible). */
  async function databaseWithBackup(server: ServeProcess) {
    const token = await signAccessToken(SECRET, { organisationId: 1, userId: 1, scope: "read write" });
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const create = (name: string) =>
      fetch(`${server.url}/v2/patients`, {
        method: "POST",
        headers,
        body: JSON.stringify({ first_name: "Live", last_name: name, date_of_birth: "1980-01-01" }),
      });
    expect((await create("Before")).status).toBe(201);
    const backup = join(temp.dir, "before.db");
    expect(runCli(["backup", backup], env, temp.dir).status).toBe(0);
    expect((await create("After")).status).toBe(201);
    // Read through whichever server runs now (the test restarts it).
    const total = async () =>
      (await (await fetch(`${serve!.url}/v2/patients?per_page=1`, { headers })).json()).pagination.total_count;
    return { backup, total };
  }

  it("while `openpractice serve` runs: exit 75, naming the server's process, and nothing changes", async () => {
    temp = makeTempDir();
    serve = await startServe({ PORT: "0", ...env }, temp.dir);
    const { backup, total } = await databaseWithBackup(serve);
    const refused = runCli(["restore", backup], env, temp.dir);
    expect(refused.status).toBe(75);
    expect(refused.stderr).toContain(
      `openpractice: restore: ./data/openpractice.db is open in pid ${serve.child.pid} (`,
    );
    expect(refused.stderr).toMatch(/openpractice\.mjs serve\)|cli\.js serve\)/);
    expect(refused.stderr).toContain("stop it first, then run restore again");
    expect(refused.stdout).toBe("");
    // The server still serves the data it had, and nothing was kept or replaced.
    expect(await total()).toBe(2);
    expect(existsSync(join(temp.dir, "data", "openpractice.db.before-restore"))).toBe(false);

    await stopServe(serve);
    const restored = runCli(["restore", backup], env, temp.dir);
    expect(restored.status, restored.stderr).toBe(0);
    serve = await startServe({ PORT: "0", ...env }, temp.dir);
    expect(await total()).toBe(1);
  });

  it("while `serve --workers 2` runs: names every worker process", async () => {
    temp = makeTempDir();
    serve = await startServe({ PORT: "0", ...env }, temp.dir, { args: ["--workers", "2"] });
    const workers = () => serve!.logs().filter((l) => l.msg === "worker listening");
    await expect.poll(() => workers().length).toBe(2);
    const { backup, total } = await databaseWithBackup(serve);
    const refused = runCli(["restore", backup], env, temp.dir);
    expect(refused.status).toBe(75);
    for (const pid of workers().map((l) => Number(l.worker_pid))) expect(refused.stderr).toContain(`pid ${pid} (`);
    expect(await total()).toBe(2);
  });

  it("while another program (an embedding application) holds a connection to the file", async () => {
    temp = makeTempDir();
    expect(runCli(["migrate"], env, temp.dir).status).toBe(0);
    const database = join(temp.dir, "data", "openpractice.db");
    const backup = join(temp.dir, "copy.db");
    expect(runCli(["backup", backup], env, temp.dir).status).toBe(0);
    const embedder = new BetterSqlite3(database);
    try {
      embedder.pragma("journal_mode = WAL");
      embedder.prepare("select count(*) from patients").get();
      const refused = runCli(["restore", backup], env, temp.dir);
      expect(refused.status).toBe(75);
      expect(refused.stderr).toContain(`is open in pid ${process.pid} (`);
    } finally {
      embedder.close();
    }
    expect(runCli(["restore", backup], env, temp.dir).status).toBe(0);
  });

  it("backup, which runs beside a server, says so when a restore holds the database", () => {
    temp = makeTempDir();
    expect(runCli(["migrate"], env, temp.dir).status).toBe(0);
    const restoring = new BetterSqlite3(join(temp.dir, "data", "openpractice.db"));
    try {
      // As restore holds it: SQLite's exclusive locking mode, taken by a first transaction and kept.
      restoring.pragma("locking_mode = EXCLUSIVE");
      restoring.exec("BEGIN EXCLUSIVE; COMMIT");
      const r = runCli(["backup", join(temp.dir, "b.db")], env, temp.dir);
      expect(r.status).toBe(75);
      expect(r.stderr).toContain(
        `backup: ./data/openpractice.db is locked by another process (open in pid ${process.pid} (`,
      );
      expect(existsSync(join(temp.dir, "b.db")) || existsSync(join(temp.dir, "b.db.partial"))).toBe(false);
    } finally {
      restoring.close();
    }
  });

  // The copy holds SQLite's exclusive lock from its first page to its commit: a process that opens the database
  // meanwhile (a server started too early) waits, then reads the restored data, never a mixture or the old data.
  it("a process that opens the database during the copy waits for it, then reads the restored data", async () => {
    temp = makeTempDir();
    expect(runCli(["seed", "--patients", "3"], env, temp.dir).status).toBe(0);
    const database = join(temp.dir, "data", "openpractice.db");
    // 150 MB of filler: a copy long enough to be seen under way.
    const filler = new BetterSqlite3(database);
    filler.exec(
      "create table filler (x); with recursive n(i) as (select 1 union all select i + 1 from n where i < 150000) insert into filler select randomblob(1000) from n",
    );
    filler.close();
    const backup = join(temp.dir, "big.db");
    expect(runCli(["backup", backup], env, temp.dir).status).toBe(0);
    const inBackup = patientsIn(backup);
    expect(runCli(["seed", "--org", "2", "--patients", "4"], env, temp.dir).status).toBe(0);
    expect(patientsIn(database)).toBeGreaterThan(inBackup);

    const restore = runCliAsync(["restore", backup], env, temp.dir);
    // The copy's rollback journal, seen twice 20 ms apart: the copy is under way (leaving WAL mode writes one too,
    // for a moment).
    const journal = `${database}-journal`;
    const copying = async () => {
      if (!existsSync(journal)) return false;
      await sleep(20);
      return existsSync(journal);
    };
    await expect.poll(copying).toBe(true);
    const reader = new BetterSqlite3(database, { readonly: true, timeout: 30_000 });
    let read: number;
    try {
      read = Number((reader.prepare("select count(*) as n from patients").get() as { n: number }).n);
    } finally {
      reader.close();
    }
    const restored = await restore;
    expect(restored.stderr).toBe("");
    expect(restored.status).toBe(0);
    expect(read).toBe(inBackup);
  });
});
