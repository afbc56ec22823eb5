import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../support/temp-dir.js";

const UNIT = fileURLToPath(new URL("../../examples/deploy/openpractice.service", import.meta.url));
const BIN = fileURLToPath(new URL("../../packages/runtime/bin/openpractice.mjs", import.meta.url));

// docs/deployment.md's unit, checked by systemd's own parser. Its paths are the install's (/usr/bin/node,
// /opt/openpractice); here they point at this checkout so systemd finds the executables.
describe("the systemd unit of docs/deployment.md", () => {
  const verify = (text: string) => {
    const temp = makeTempDir();
    try {
      const file = join(temp.dir, "openpractice.service");
      writeFileSync(file, text);
      const r = spawnSync("systemd-analyze", ["verify", file], { encoding: "utf8" });
      if (r.error)
        throw new Error(`systemd-analyze is needed for this test (apt-get install systemd): ${r.error.message}`);
      // Parse problems are warnings on stderr with status 0: any line naming the unit counts.
      return {
        status: r.status,
        problems: (r.stderr ?? "").split("\n").filter((l) => l.includes("openpractice.service")),
      };
    } finally {
      temp.remove();
    }
  };
  const localised = () =>
    readFileSync(UNIT, "utf8")
      .replace("/usr/bin/node", process.execPath)
      .replace("/opt/openpractice/packages/runtime/bin/openpractice.mjs", BIN);

  it("passes systemd-analyze verify without a warning", () => {
    expect(verify(localised())).toEqual({ status: 0, problems: [] });
  });

  it("the check catches a mistake (so the pass above means something)", () => {
    const broken = verify(localised().replace("Restart=on-failure", "Restart=sometimes"));
    expect(broken.problems.join("\n")).toContain("restart specifier");
  });

  it("the unit in docs/deployment.md is this file", () => {
    const doc = readFileSync(fileURLToPath(new URL("../../docs/deployment.md", import.meta.url)), "utf8");
    const block = /```ini\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(block).toBe(readFileSync(UNIT, "utf8"));
  });
});
