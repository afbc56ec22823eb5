import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir } from "../support/temp-dir.js";
import { runCli } from "./cli-process.js";

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8).padStart(4, "0");
const env = { OPENPRACTICE_JWT_SECRET: "backup-modes-secret-0123456789-abcdefghij" };

// A backup is the patient records: whatever the umask of the shell or timer that runs it, only the owner may read
// the copies `backup` writes or the database and its kept predecessor that `restore` leaves.
describe.each(["000", "022"])("backup and restore under umask %s", (umask) => {
  let temp: ReturnType<typeof makeTempDir> | undefined;
  afterEach(() => temp?.remove());

  it("leave only owner-only files (0600) and folders (0700)", () => {
    temp = makeTempDir();
    const run = (...args: string[]) => {
      const r = runCli(args, env, temp!.dir, { umask });
      expect(r.status, r.stderr).toBe(0);
      return JSON.parse(r.stdout.trim().split("\n").pop()!);
    };
    run("seed", "--patients", "5");
    const file = join(temp.dir, "nightly.db");
    const folder = join(temp.dir, "backups");
    const plain = run("backup", file).backup;
    const named = run("backup", `${folder}/`).backup;
    const encrypted = run("backup", "--encrypt", `${folder}/`).backup;
    const restored = run("restore", encrypted);
    const restoredPlain = run("restore", plain);
    const data = join(temp.dir, "data");
    expect({
      [plain]: mode(plain),
      [named]: mode(named),
      [encrypted]: mode(encrypted),
      [folder]: mode(folder),
      [restored.restored]: mode(join(temp.dir, restored.restored)),
      [restoredPlain.previous]: mode(join(temp.dir, restoredPlain.previous)),
      "backup-key": mode(join(data, "backup-key")),
    }).toEqual({
      [plain]: "0600",
      [named]: "0600",
      [encrypted]: "0600",
      [folder]: "0700",
      [restored.restored]: "0600",
      [restoredPlain.previous]: "0600",
      "backup-key": "0600",
    });
    // Every other file in the data directory too, and no plain copy or partial file left behind.
    const left = readdirSync(data).filter((f) => !f.endsWith("-wal") && !f.endsWith("-shm"));
    expect(left.sort()).toEqual([
      "backup-key",
      "openpractice.db",
      "openpractice.db.before-restore",
      "vapid-keys.json",
      "webhook-secret-key",
    ]);
    for (const f of readdirSync(data)) expect([f, mode(join(data, f))]).toEqual([f, "0600"]);
    expect(readdirSync(folder).filter((f) => f.endsWith(".partial"))).toEqual([]);
  });
});
