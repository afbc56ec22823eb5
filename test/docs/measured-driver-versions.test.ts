import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// The server engines' figures in docs/performance.md hold for the driver versions they were measured with: the
// PostgreSQL adapter's pipelining rides on pg's pipeline mode, MySQL's batching on mysql2. An upgrade in the lock
// file fails here until the figures are measured again and the page's "Drivers measured" line names it.
const root = new URL("../../", import.meta.url);
const DRIVERS = ["pg", "pg-pool", "pg-protocol", "mysql2", "kysely"];

function installed(name: string): string | undefined {
  const lock = JSON.parse(readFileSync(new URL("package-lock.json", root), "utf8")) as {
    packages: Record<string, { version?: string }>;
  };
  return lock.packages[`node_modules/${name}`]?.version;
}

function measured(): Map<string, string> {
  const page = readFileSync(new URL("docs/performance.md", root), "utf8");
  const line = page.split("\n").find((l) => l.startsWith("Drivers measured:"));
  if (!line) throw new Error('docs/performance.md has no "Drivers measured:" line');
  return new Map([...line.matchAll(/([a-z][\w-]*) (\d+\.\d+\.\d+)/g)].map((m) => [m[1] as string, m[2] as string]));
}

describe("the driver versions docs/performance.md was measured with", () => {
  it("are the versions the lock file installs", () => {
    const named = measured();
    for (const name of DRIVERS) {
      expect(installed(name), `${name} in package-lock.json`).toMatch(/^\d+\.\d+\.\d+$/);
      expect(named.get(name), `${name} in docs/performance.md ("Drivers measured")`).toBe(installed(name));
    }
  });
});
