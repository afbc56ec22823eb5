import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { isSupportedNode, SUPPORTED_NODE_RANGE } from "../../packages/runtime/bin/node-support.mjs";
import { makeTempDir } from "../support/temp-dir.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const BIN = join(ROOT, "packages/runtime/bin/openpractice.mjs");
const LAUNCHER = join(ROOT, "scripts/with-supported-node.mjs");
const SYSTEM_NODE = "/usr/bin/node";

/** Runs a script as an old Node would: preloading a module that makes process.versions.node say so. */
const pretending = (version: string) => [
  "--import",
  `data:text/javascript,Object.defineProperty(process.versions,"node",{value:"${version}"})`,
];

/**
 * An unsupported Node to run the CLI on: the machine's own when it is one (Node 20 on the CI machine,
 * where better-sqlite3 13 would crash), else this Node claiming to be 20.19.0.
 */
function unsupportedNode(): { command: string; prefix: string[]; version: string } {
  if (existsSync(SYSTEM_NODE)) {
    const version = spawnSync(SYSTEM_NODE, ["-p", "process.versions.node"], { encoding: "utf8" }).stdout.trim();
    if (version && !isSupportedNode(version)) return { command: SYSTEM_NODE, prefix: [], version };
  }
  return { command: process.execPath, prefix: pretending("20.19.0"), version: "20.19.0" };
}

const temps: Array<{ remove: () => void }> = [];
afterEach(() => temps.splice(0).forEach((t) => t.remove()));
const tempDir = () => {
  const temp = makeTempDir();
  temps.push(temp);
  return temp.dir;
};

describe("supported Node.js range", () => {
  it("is the policy's: 22 from 22.12, and 24", () => {
    expect(SUPPORTED_NODE_RANGE).toBe("^22.12.0 || ^24.0.0");
    for (const version of ["20.19.0", "v20.20.2", "22.11.0", "23.11.0", "25.0.0", "26.1.0"])
      expect(isSupportedNode(version), version).toBe(false);
    for (const version of ["22.12.0", "v22.21.1", "24.0.0", "24.21.0"])
      expect(isSupportedNode(version), version).toBe(true);
  });

  it("is declared the same in every package.json, and .nvmrc names a supported line", () => {
    const root = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      engines: { node: string };
      workspaces: string[];
    };
    const declared = [".", ...root.workspaces].map((dir) => [
      dir,
      JSON.parse(readFileSync(join(ROOT, dir, "package.json"), "utf8")).engines?.node,
    ]);
    expect(declared).toEqual(declared.map(([dir]) => [dir, SUPPORTED_NODE_RANGE]));
    const line = readFileSync(join(ROOT, ".nvmrc"), "utf8").trim();
    expect(isSupportedNode(`${line}.0.0`)).toBe(true);
  });
});

describe("openpractice on an unsupported Node", () => {
  for (const command of ["migrate", "serve", "seed"]) {
    it(`${command}: one line naming both versions, exit 1, no database created`, () => {
      const node = unsupportedNode();
      const dataDir = join(tempDir(), "data");
      const result = spawnSync(node.command, [...node.prefix, BIN, command], {
        env: {
          PATH: process.env.PATH,
          DATABASE_URL: `sqlite:${join(dataDir, "openpractice.db")}`,
          OPENPRACTICE_DATA_DIR: dataDir,
        },
        encoding: "utf8",
        timeout: 30_000,
      });
      expect(result.signal).toBeNull();
      expect(result.status).toBe(1);
      expect(result.stdout).toBe("");
      expect(result.stderr).toBe(
        `openpractice: Node.js ${node.version} is not supported; supported versions: ${SUPPORTED_NODE_RANGE} (the LTS lines 22 and 24; see docs/node-support.md)\n`,
      );
      expect(existsSync(dataDir)).toBe(false);
    });
  }
});

describe("scripts/with-supported-node.mjs", () => {
  /** A cache holding a stand-in for the registry's Node package: this Node, under the version given. */
  function fakeCache(line: string, version: string): { cache: string; bin: string } {
    const cache = tempDir();
    const packageDir = join(cache, line, "node_modules", `node-${process.platform}-${process.arch}`);
    mkdirSync(join(packageDir, "bin"), { recursive: true });
    writeFileSync(
      join(packageDir, "package.json"),
      JSON.stringify({ name: `node-${process.platform}-${process.arch}`, version }),
    );
    symlinkSync(process.execPath, join(packageDir, "bin", "node"));
    return { cache, bin: join(packageDir, "bin") };
  }

  const report =
    "console.log(JSON.stringify({ path0: process.env.PATH.split(require('path').delimiter)[0], nodedir: process.env.npm_config_nodedir ?? null }))";

  it("on an old Node, runs the command with the cached supported Node first on PATH, saying so in one line", () => {
    const { cache, bin } = fakeCache("24", "24.99.0");
    const result = spawnSync(
      process.execPath,
      [...pretending("20.19.0"), LAUNCHER, "node", "-e", `${report}; process.exit(7)`],
      {
        env: { PATH: process.env.PATH, OPENPRACTICE_NODE_CACHE: cache },
        encoding: "utf8",
      },
    );
    expect(result.stderr).toBe(
      `openpractice: Node.js 20.19.0 is outside the supported range ${SUPPORTED_NODE_RANGE}; using Node.js 24.99.0 from ${join(cache, "24")}/\n`,
    );
    expect(result.status).toBe(7);
    expect(JSON.parse(result.stdout)).toEqual({ path0: bin, nodedir: join(bin, "..") });
  });

  it("OPENPRACTICE_NODE_LINE picks the line even when the running Node is supported", () => {
    const other = process.versions.node.startsWith("22.") ? "24" : "22";
    const { cache, bin } = fakeCache(other, `${other}.99.0`);
    const result = spawnSync(process.execPath, [LAUNCHER, "node", "-e", report], {
      env: { PATH: process.env.PATH, OPENPRACTICE_NODE_CACHE: cache, OPENPRACTICE_NODE_LINE: other },
      encoding: "utf8",
    });
    expect(result.stderr).toBe(
      `openpractice: OPENPRACTICE_NODE_LINE=${other}; using Node.js ${other}.99.0 from ${join(cache, other)}/\n`,
    );
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout).path0).toBe(bin);
  });

  it("on a supported Node, runs the command as it is, silently", () => {
    const result = spawnSync(process.execPath, [LAUNCHER, "node", "-e", report], {
      env: { PATH: process.env.PATH, OPENPRACTICE_NODE_CACHE: tempDir() },
      encoding: "utf8",
    });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ path0: process.env.PATH!.split(":")[0], nodedir: null });
  });
});
