import { chmodSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir } from "../support/temp-dir.js";
import { runCli, startServe, type ServeProcess } from "./cli-process.js";

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8).padStart(4, "0");

// The SQLite database holds patient records: nobody but the server's user may read it, its journal files or the keys.
describe("data directory and database file modes", () => {
  let serve: ServeProcess | undefined;
  let temp: ReturnType<typeof makeTempDir> | undefined;
  afterEach(async () => {
    if (serve && serve.child.exitCode === null) serve.child.kill("SIGKILL");
    temp?.remove();
  });

  it("creates data/ 0700 and the database, -wal, -shm and key files 0600, even under umask 000", async () => {
    temp = makeTempDir();
    serve = await startServe({ PORT: "0" }, temp.dir, { umask: "000" });
    const token = runCli(["token", "--org", "1", "--user", "1"], {}, temp.dir).stdout.trim();
    const res = await fetch(`${serve.url}/apis/v1/patient`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ first_name: "Mode", last_name: "Check", date_of_birth: "1970-01-01" }),
    });
    expect(res.status).toBe(200);
    const data = join(temp.dir, "data");
    const files = [
      "openpractice.db",
      "openpractice.db-wal",
      "openpractice.db-shm",
      "jwt-secret",
      "webhook-secret-key",
      "vapid-keys.json",
    ];
    expect({ data: mode(data), ...Object.fromEntries(files.map((f) => [f, mode(join(data, f))])) }).toEqual({
      data: "0700",
      ...Object.fromEntries(files.map((f) => [f, "0600"])),
    });
  });

  it("database files left readable by an older release become 0600 when the server opens them", async () => {
    temp = makeTempDir();
    const folder = join(temp.dir, "elsewhere");
    mkdirSync(folder);
    const files = ["op.db", "op.db-wal", "op.db-shm"];
    for (const f of files) writeFileSync(join(folder, f), "");
    for (const f of files) chmodSync(join(folder, f), 0o644);
    serve = await startServe({ PORT: "0", DATABASE_URL: `sqlite:${folder}/op.db` }, temp.dir);
    expect(files.map((f) => mode(join(folder, f)))).toEqual(["0600", "0600", "0600"]);
  });

  it("a database folder that DATABASE_URL names is created 0700", () => {
    temp = makeTempDir();
    const nested = join(temp.dir, "new", "db");
    const r = runCli(["migrate"], { DATABASE_URL: `sqlite:${nested}/op.db` }, temp.dir);
    expect(r.status, r.stderr).toBe(0);
    expect([mode(nested), mode(join(nested, "op.db"))]).toEqual(["0700", "0600"]);
  });
});
