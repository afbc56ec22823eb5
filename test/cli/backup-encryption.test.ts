import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir } from "../support/temp-dir.js";
import { runCli } from "./cli-process.js";
import { patientsIn } from "./patients-in.js";

const env = { OPENPRACTICE_JWT_SECRET: "backup-encryption-secret-0123456789-abcdef" };

/** The age reference implementation (Debian's `age` package; scripts/test-tools.mjs installs it): an independent reader. */
function age(args: string[]) {
  const r = spawnSync(args[0] === "keygen" ? "age-keygen" : "age", args[0] === "keygen" ? args.slice(1) : args, {
    encoding: "utf8",
  });
  if (r.error) throw new Error(`the age CLI is needed for this test (apt-get install age): ${r.error.message}`);
  expect(r.status, r.stderr).toBe(0);
  return r;
}

describe("encrypted backups (age)", () => {
  let temp: ReturnType<typeof makeTempDir>;
  afterEach(() => temp?.remove());
  const cli = (args: string[], extra: Record<string, string> = {}) => runCli(args, { ...env, ...extra }, temp.dir);
  const json = (r: ReturnType<typeof runCli>) => {
    expect(r.status, r.stderr).toBe(0);
    return JSON.parse(r.stdout);
  };
  const database = () => join(temp.dir, "data", "openpractice.db");

  it("with the generated key file: age -d reads it, and restore decrypts it in place", () => {
    temp = makeTempDir();
    json(cli(["seed", "--patients", "7"]));
    const patients = patientsIn(database());
    const summary = json(cli(["backup", "--encrypt", join(temp.dir, "nightly.db.age")]));
    const keyFile = join(temp.dir, "data", "backup-key");
    expect(summary).toMatchObject({ encrypted: true, backup_key: "data/backup-key", backup_key_created: true });
    const encrypted = readFileSync(summary.backup);
    expect(encrypted.subarray(0, 22).toString()).toBe("age-encryption.org/v1\n");
    expect(encrypted.includes("SQLite format 3")).toBe(false);
    // The key file is age-keygen's format: the reference CLI decrypts with it.
    expect(readFileSync(keyFile, "utf8")).toMatch(/^# created: .+\n# public key: age1[0-9a-z]{58}\nAGE-SECRET-KEY-1/);
    const decrypted = join(temp.dir, "decrypted.db");
    age(["--decrypt", "--identity", keyFile, "--output", decrypted, summary.backup]);
    expect(patientsIn(decrypted)).toBe(patients);
    // A second encrypted backup uses the same key.
    expect(json(cli(["backup", "--encrypt", join(temp.dir, "second.db.age")]))).toMatchObject({
      backup_key_created: false,
    });

    json(cli(["seed", "--org", "2", "--patients", "3"]));
    expect(patientsIn(database())).toBe(patients + 3);
    expect(json(cli(["restore", summary.backup]))).toMatchObject({ decrypted: true, migrated: true });
    expect(patientsIn(database())).toBe(patients);
  });

  it("with OPENPRACTICE_BACKUP_KEY from age-keygen: no key file is written; age's own encryption restores too", () => {
    temp = makeTempDir();
    const keyFile = join(temp.dir, "operator.key");
    age(["keygen", "-o", keyFile]);
    const identity = readFileSync(keyFile, "utf8").trim().split("\n").pop()!;
    const recipient = age(["keygen", "-y", keyFile]).stdout.trim();
    const withKey = { OPENPRACTICE_BACKUP_KEY: identity };
    json(cli(["seed", "--patients", "4"]));
    const patients = patientsIn(database());
    const summary = json(cli(["backup", "--encrypt", join(temp.dir, "b.db.age")], withKey));
    expect(summary).toMatchObject({ backup_key: "OPENPRACTICE_BACKUP_KEY", backup_key_created: false });
    expect(existsSync(join(temp.dir, "data", "backup-key"))).toBe(false);
    const decrypted = join(temp.dir, "decrypted.db");
    age(["--decrypt", "--identity", keyFile, "--output", decrypted, summary.backup]);
    expect(patientsIn(decrypted)).toBe(patients);

    // The other direction: a plain backup encrypted by the age CLI for the recipient, restored by openpractice.
    const plain = join(temp.dir, "plain.db");
    json(cli(["backup", plain]));
    const byAge = join(temp.dir, "by-age.age");
    age(["--encrypt", "--recipient", recipient, "--output", byAge, plain]);
    json(cli(["seed", "--org", "2", "--patients", "2"]));
    expect(json(cli(["restore", byAge], withKey))).toMatchObject({ decrypted: true });
    expect(patientsIn(database())).toBe(patients);
  });

  it("removes the plain copies a killed run left beside the database, and only those", () => {
    temp = makeTempDir();
    json(cli(["migrate"]));
    const data = join(temp.dir, "data");
    const gone = spawnSync(process.execPath, ["-e", ""]).pid;
    const abandoned = [
      `openpractice.db.backup-${gone}`,
      `openpractice.db.restoring-${gone}`,
      `openpractice.db.restoring-${gone}-wal`,
    ];
    // A run still going (this process stands for it), and files that only look alike.
    const kept = [
      `openpractice.db.backup-${process.pid}`,
      `other.db.backup-${gone}`,
      `openpractice.db.backup-${gone}.txt`,
    ];
    for (const f of [...abandoned, ...kept]) writeFileSync(join(data, f), "plain patient records");
    json(cli(["backup", "--encrypt", join(temp.dir, "b.db.age")]));
    expect(
      readdirSync(data)
        .filter((f) => f.includes(".backup-") || f.includes(".restoring-"))
        .sort(),
    ).toEqual([...kept].sort());
  });

  it("refuses a backup it cannot decrypt (no key, another key, cut short, altered), changing nothing", () => {
    temp = makeTempDir();
    json(cli(["seed", "--patients", "3"]));
    const file = json(cli(["backup", "--encrypt", join(temp.dir, "b.db.age")])).backup as string;
    const before = patientsIn(database());
    json(cli(["seed", "--org", "2", "--patients", "2"]));
    const current = patientsIn(database());

    const otherData = { OPENPRACTICE_DATA_DIR: join(temp.dir, "elsewhere"), DATABASE_URL: `sqlite:${database()}` };
    const noKey = cli(["restore", file], otherData);
    expect(noKey.status).toBe(64);
    expect(noKey.stderr).toContain(
      `is encrypted (age) and there is no backup key: set OPENPRACTICE_BACKUP_KEY or put the key file at ${join(temp.dir, "elsewhere", "backup-key")}`,
    );
    expect(existsSync(join(temp.dir, "elsewhere", "backup-key")), "restore never generates a key").toBe(false);

    const otherKeyFile = join(temp.dir, "other.key");
    age(["keygen", "-o", otherKeyFile]);
    const otherKey = readFileSync(otherKeyFile, "utf8").trim().split("\n").pop()!;
    const wrongKey = cli(["restore", file], { OPENPRACTICE_BACKUP_KEY: otherKey });
    expect(wrongKey.status).toBe(64);
    expect(wrongKey.stderr).toContain("with the backup key of OPENPRACTICE_BACKUP_KEY");
    expect(wrongKey.stderr).toContain("nothing was changed");

    const cut = join(temp.dir, "cut.db.age");
    writeFileSync(cut, readFileSync(file));
    truncateSync(cut, statSync(cut).size - 100);
    const altered = join(temp.dir, "altered.db.age");
    const bytes = readFileSync(file);
    const middle = Math.floor(bytes.length / 2);
    bytes.writeUInt8(bytes.readUInt8(middle) ^ 1, middle);
    writeFileSync(altered, bytes);
    for (const bad of [cut, altered]) {
      const r = cli(["restore", bad]);
      expect([bad, r.status]).toEqual([bad, 64]);
      expect(r.stderr).toContain(`restore: cannot decrypt ${bad} with the backup key of data/backup-key`);
    }
    expect(patientsIn(database())).toBe(current);
    expect(existsSync(`${database()}.before-restore`)).toBe(false);
    // The good file still restores.
    json(cli(["restore", file]));
    expect(patientsIn(database())).toBe(before);
  });
});
