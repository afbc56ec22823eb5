import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { signAccessToken } from "@openpractice/runtime";
import BetterSqlite3 from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir } from "../support/temp-dir.js";
import { runCli, runCliAsync, startServe, stopServe, type ServeProcess } from "./cli-process.js";
import { patientsIn } from "./patients-in.js";

const SECRET = "backup-restore-secret-0123456789-abcdefghij";

describe("openpractice backup and restore (SQLite)", () => {
  let temp: ReturnType<typeof makeTempDir>;
  let serve: ServeProcess | undefined;
  afterEach(async () => {
    await stopServe(serve);
    serve = undefined;
    temp?.remove();
  });
  const env = { OPENPRACTICE_JWT_SECRET: SECRET, OPENPRACTICE_PLAN_LIMITS: '{"free":1000000}' };

  it("copies the database consistently while patients are being written, and restores it in place", async () => {
    temp = makeTempDir();
    serve = await startServe({ PORT: "0", ...env }, temp.dir);
    const token = await signAccessToken(SECRET, { organisationId: 1, userId: 1, scope: "read write" });
    const create = (i: number) =>
      fetch(`${serve!.url}/v2/patients`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ first_name: "Writer", last_name: `Number ${i}`, date_of_birth: "1980-01-01" }),
      });
    for (let i = 0; i < 20; i++) expect((await create(i)).status).toBe(201);

    // Writers keep creating patients while the backup runs.
    let writing = true;
    let created = 20;
    const writer = (async () => {
      for (let i = 20; writing; i++) if ((await create(i)).status === 201) created++;
    })();
    const backupFile = join(temp.dir, "nightly.db");
    const result = await runCliAsync(["backup", backupFile], env, temp.dir);
    const createdWhenDone = created;
    writing = false;
    await writer;
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(createdWhenDone, "patients were written while the backup ran").toBeGreaterThan(20);
    const summary = JSON.parse(result.stdout);
    expect(summary).toMatchObject({ backup: backupFile, pages: expect.any(Number), bytes: expect.any(Number) });
    // (No jwt-secret file: OPENPRACTICE_JWT_SECRET is set.)
    expect(summary.keep_with_it.map((f: string) => f.split("/").pop()).sort()).toEqual([
      "token-signing-keys.json",
      "vapid-keys.json",
      "webhook-secret-key",
    ]);
    const inBackup = patientsIn(backupFile);
    expect(inBackup).toBeGreaterThanOrEqual(20);
    expect(inBackup).toBeLessThanOrEqual(createdWhenDone + 1);
    expect(existsSync(`${backupFile}.partial`)).toBe(false);

    // Later changes, then the restore brings the backup's state back.
    for (let i = 0; i < 5; i++) expect((await create(1000 + i)).status).toBe(201);
    await stopServe(serve);
    const restored = runCli(["restore", backupFile], env, temp.dir);
    expect(restored.stderr).toBe("");
    expect(restored.status).toBe(0);
    expect(JSON.parse(restored.stdout)).toMatchObject({
      migrated: true,
      previous: expect.stringMatching(/before-restore$/),
    });
    serve = await startServe({ PORT: "0", ...env }, temp.dir);
    const list = await fetch(`${serve.url}/v2/patients?per_page=1`, { headers: { authorization: `Bearer ${token}` } });
    expect((await list.json()).pagination.total_count).toBe(inBackup);
    expect(patientsIn(join(temp.dir, "data", "openpractice.db.before-restore"))).toBe(created + 5);
  });

  it("refuses what it cannot do, naming why, and changes nothing", () => {
    temp = makeTempDir();
    const existing = join(temp.dir, "exists.db");
    writeFileSync(existing, "");
    const noDatabase = runCli(["backup", join(temp.dir, "b.db")], env, temp.dir);
    expect(noDatabase.status).toBe(64);
    expect(noDatabase.stderr).toContain("does not exist (DATABASE_URL)");
    const postgres = runCli(
      ["backup", join(temp.dir, "b.db")],
      { ...env, DATABASE_URL: "postgres://u:p@127.0.0.1:1/db" },
      temp.dir,
    );
    expect(postgres.status).toBe(64);
    expect(postgres.stderr).toContain("pg_dump");
    const notOurs = join(temp.dir, "other.db");
    new BetterSqlite3(notOurs).exec("create table t (x)");
    const wrong = runCli(["restore", notOurs], env, temp.dir);
    expect(wrong.status).toBe(64);
    expect(wrong.stderr).toContain("is not an OpenPractice database");
    expect(existsSync(join(temp.dir, "data", "openpractice.db"))).toBe(false);
    const garbage = runCli(["restore", existing], env, temp.dir);
    expect(garbage.status).not.toBe(0);
  });
});
