import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir } from "../support/temp-dir.js";
import { runCli } from "./cli-process.js";

const env = { OPENPRACTICE_JWT_SECRET: "backup-retention-secret-0123456789-abcdef" };
const STAMPED = /^openpractice-\d{8}T\d{6}\.\d{3}Z\.db(\.age)?$/;

describe("openpractice backup <folder>/ --keep N", () => {
  let temp: ReturnType<typeof makeTempDir>;
  afterEach(() => temp?.remove());
  const cli = (...args: string[]) => runCli(args, env, temp.dir);

  it("names each backup by the time and keeps exactly the N newest of this database, plain or encrypted, and nothing else is touched", () => {
    temp = makeTempDir();
    expect(cli("migrate").status).toBe(0);
    const folder = join(temp.dir, "backups");
    mkdirSync(folder);
    // Files that look alike but are not this database's backups, and one of another database.
    const others = [
      "notes.txt",
      "openpractice-manual.db",
      "openpractice-20200101T000000.000Z.db.partial",
      "clinic2-20200101T000000.000Z.db",
      "openpractice-20200101T000000.000Z.sql",
    ];
    for (const f of others) writeFileSync(join(folder, f), "not a backup of ours");
    // A link named like a backup is not removed either (nor what it points at).
    writeFileSync(join(temp.dir, "target.db"), "");
    symlinkSync(join(temp.dir, "target.db"), join(folder, "openpractice-20200101T000000.000Z.db"));
    // An old backup written by an earlier run: the oldest by its name.
    writeFileSync(join(folder, "openpractice-20210101T000000.000Z.db"), "old");

    const written: string[] = [];
    const removed: string[][] = [];
    for (const flags of [[], ["--encrypt"], [], ["--encrypt"]]) {
      const r = cli("backup", ...flags, "--keep", "2", `${folder}/`);
      expect(r.status, r.stderr).toBe(0);
      const summary = JSON.parse(r.stdout);
      expect(summary.backup.split("/").pop()).toMatch(STAMPED);
      written.push(summary.backup.split("/").pop());
      removed.push(summary.removed.map((f: string) => f.split("/").pop()));
    }
    expect(written.map((f) => f.endsWith(".age"))).toEqual([false, true, false, true]);
    expect([...written].sort()).toEqual(written);
    expect(removed).toEqual([[], ["openpractice-20210101T000000.000Z.db"], [written[0]], [written[1]]]);
    expect(readdirSync(folder).sort()).toEqual(
      [...others, "openpractice-20200101T000000.000Z.db", written[2], written[3]].sort(),
    );

    // --keep 1 leaves only the newest.
    const last = JSON.parse(cli("backup", "--keep", "1", folder).stdout);
    expect(readdirSync(folder).filter((f) => STAMPED.test(f) && f !== "openpractice-20200101T000000.000Z.db")).toEqual([
      last.backup.split("/").pop(),
    ]);
  });

  it("refuses --keep without a folder, and a --keep that is not a whole number of at least 1", () => {
    temp = makeTempDir();
    expect(cli("migrate").status).toBe(0);
    const file = cli("backup", "--keep", "3", join(temp.dir, "one.db"));
    expect(file.status).toBe(64);
    expect(file.stderr).toContain("backup: --keep needs a folder to write into");
    for (const bad of ["0", "-1", "two", "1.5"]) {
      const r = cli("backup", `--keep=${bad}`, join(temp.dir, "folder/"));
      expect([bad, r.status]).toEqual([bad, 64]);
      expect(r.stderr).toContain(`backup: --keep must be a whole number of backups from 1 to 100000 (got '${bad}')`);
    }
    expect(readdirSync(temp.dir).sort()).toEqual(["data"]);
  });
});
