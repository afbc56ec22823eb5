import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../support/temp-dir.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url)).replace(/\/$/, "");
const DEPLOY = join(ROOT, "examples/deploy");
const UNITS = ["openpractice.service", "openpractice-backup.service", "openpractice-backup.timer"];

/** A unit as installed, with /opt/openpractice (the release) pointing at this checkout so that its paths exist here. */
const localised = (unit: string) => readFileSync(join(DEPLOY, unit), "utf8").replaceAll("/opt/openpractice", ROOT);

/** A directive's values in a unit (every line of it, in order). */
const directives = (text: string, name: string) =>
  text
    .split("\n")
    .filter((l) => l.startsWith(`${name}=`))
    .map((l) => l.slice(name.length + 1));

// docs/deployment.md's units, checked by systemd's own parser.
describe("the systemd units of docs/deployment.md", () => {
  /** systemd-analyze verify on the units together (as installed side by side); the lines that name one of them. */
  const verify = (units: Record<string, string>) => {
    const temp = makeTempDir();
    try {
      for (const [name, text] of Object.entries(units)) writeFileSync(join(temp.dir, name), text);
      const r = spawnSync("systemd-analyze", ["verify", ...Object.keys(units).map((n) => join(temp.dir, n))], {
        encoding: "utf8",
      });
      if (r.error)
        throw new Error(`systemd-analyze is needed for this test (apt-get install systemd): ${r.error.message}`);
      // Parse problems are warnings on stderr with status 0: any line naming a unit counts.
      return {
        status: r.status,
        problems: (r.stderr ?? "").split("\n").filter((l) => Object.keys(units).some((n) => l.includes(n))),
      };
    } finally {
      temp.remove();
    }
  };
  const all = () => Object.fromEntries(UNITS.map((u) => [u, localised(u)]));

  it("pass systemd-analyze verify without a warning", () => {
    expect(verify(all())).toEqual({ status: 0, problems: [] });
  });

  it("the check catches a mistake in each (so the pass above means something)", () => {
    const broken = all();
    broken["openpractice.service"] = broken["openpractice.service"]!.replace("Restart=on-failure", "Restart=sometimes");
    broken["openpractice-backup.service"] = broken["openpractice-backup.service"]!.replace("Nice=10", "Nice=loud");
    broken["openpractice-backup.timer"] = broken["openpractice-backup.timer"]!.replace(
      "Persistent=true",
      "Persistent=maybe",
    );
    const { problems } = verify(broken);
    expect(problems.join("\n")).toContain("restart specifier");
    expect(problems.some((l) => l.includes("openpractice-backup.service") && l.includes("loud"))).toBe(true);
    expect(problems.some((l) => l.includes("openpractice-backup.timer") && l.includes("maybe"))).toBe(true);
  });

  // The unit once ran /usr/bin/node, which the launcher refuses where that is the distribution's older Node (20
  // here, 18 on Debian 12): each command runs as the unit starts it, on the PATH the unit sets.
  it.each(UNITS.filter((u) => u.endsWith(".service")))(
    "%s starts the openpractice command on a supported Node",
    (unit) => {
      const text = localised(unit);
      const [execStart] = directives(text, "ExecStart");
      const path = directives(text, "Environment").find((e) => e.startsWith("PATH="));
      expect(path, "the unit sets PATH").toBeDefined();
      const [command, ...args] = execStart!.split(" ");
      const bin = args.findIndex((a) => a.endsWith("/openpractice.mjs"));
      expect(bin).toBeGreaterThan(-1);
      const env = { PATH: path!.slice("PATH=".length) };
      const version = spawnSync(command!, [...args.slice(0, bin), "-p", "process.versions.node"], {
        env,
        encoding: "utf8",
      });
      expect(Number(version.stdout.split(".")[0])).toBeOneOf([22, 24]);
      // The command itself, asked for its usage instead of serving or backing up.
      const help = spawnSync(command!, [...args.slice(0, bin + 1), "--help"], { env, encoding: "utf8" });
      expect(help.stderr).toBe("");
      expect(help.status).toBe(0);
      expect(help.stdout).toContain(`usage: openpractice <command>`);
    },
  );

  it("the timer starts the backup service", () => {
    const timer = readFileSync(join(DEPLOY, "openpractice-backup.timer"), "utf8");
    expect(directives(timer, "Unit")).toEqual(["openpractice-backup.service"]);
    expect(directives(readFileSync(join(DEPLOY, "openpractice-backup.service"), "utf8"), "Type")).toEqual(["oneshot"]);
  });

  it("docs/deployment.md shows each unit as it is in examples/deploy", () => {
    const doc = readFileSync(join(ROOT, "docs/deployment.md"), "utf8");
    const blocks = [...doc.matchAll(/```ini\n([\s\S]*?)```/g)].map((m) => m[1]);
    for (const unit of UNITS) expect(blocks, unit).toContain(readFileSync(join(DEPLOY, unit), "utf8"));
  });
});
