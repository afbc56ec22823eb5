import { existsSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { availableEngines } from "../support/engines.js";
import { makeTempDir } from "../support/temp-dir.js";
import { runCli } from "./cli-process.js";

describe("start-up configuration errors", () => {
  it.each([
    ["PORT", "70000", /^openpractice: configuration error: PORT: .*65535.* \(got '70000'\)$/],
    ["PORT", "eighty", /^openpractice: configuration error: PORT: .*number.* \(got 'eighty'\)$/],
    [
      "LOG_LEVEL",
      "loud",
      /^openpractice: configuration error: LOG_LEVEL: .*fatal, error, warn, info, debug, trace, silent.*\(got 'loud'\)$/,
    ],
    ["OPENPRACTICE_ENV", "staging", /^openpractice: configuration error: OPENPRACTICE_ENV: .*development, production/],
    [
      "OPENPRACTICE_JWT_SECRET",
      "short",
      /^openpractice: configuration error: OPENPRACTICE_JWT_SECRET: must be at least 32 characters long/,
    ],
    ["OPENPRACTICE_JWKS_URL", "not a url", /^openpractice: configuration error: OPENPRACTICE_JWKS_URL: .*URL/],
    [
      "OPENPRACTICE_JWKS_URL",
      "https://idp.example/.well-known/jwks.json",
      /^openpractice: configuration error: OPENPRACTICE_JWT_ISSUER: is required with OPENPRACTICE_JWKS_URL \(the identity provider's iss, .*\): without it any token the provider signs for another application would be accepted$/,
    ],
    [
      "OPENPRACTICE_JWT_MAX_LIFETIME_SECONDS",
      "0",
      /^openpractice: configuration error: OPENPRACTICE_JWT_MAX_LIFETIME_SECONDS: .*60.* \(got '0'\)$/,
    ],
    [
      "DATABASE_URL",
      "ftp://db",
      /^openpractice: configuration error: DATABASE_URL: must start with sqlite:, postgres:\/\/ or mysql:\/\//,
    ],
    [
      "OPENPRACTICE_PLAN_LIMITS",
      "{bad",
      /^openpractice: configuration error: OPENPRACTICE_PLAN_LIMITS: must be a JSON object/,
    ],
    [
      "OPENPRACTICE_PLAN_LIMITS",
      '{"gold":5}',
      /^openpractice: configuration error: OPENPRACTICE_PLAN_LIMITS: unknown plan 'gold'/,
    ],
  ])("%s=%s stops start-up with one line naming it", (name, value, pattern) => {
    const temp = makeTempDir();
    try {
      const r = runCli(["serve"], { [name]: value }, temp.dir);
      expect(r.status).toBe(78);
      const lines = r.stderr.trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(pattern);
      expect(r.stdout).toBe("");
    } finally {
      temp.remove();
    }
  });

  it("an unknown command is a usage error", () => {
    const temp = makeTempDir();
    const r = runCli(["frobnicate"], {}, temp.dir);
    temp.remove();
    expect(r.status).toBe(64);
    expect(r.stderr).toContain("unknown command 'frobnicate'");
  });

  it("migrate down is refused with a clear line (exit 64) and touches no database", () => {
    const temp = makeTempDir();
    try {
      const r = runCli(["migrate", "down"], {}, temp.dir);
      expect(r.status).toBe(64);
      expect(r.stderr.split("\n")[0]).toBe(
        'openpractice: migrate down is not supported: migrations only go forward. To undo one, stop the server and restore the backup taken before the upgrade (docs/getting-started.md, "Upgrading")',
      );
      expect(existsSync(join(temp.dir, "data"))).toBe(false);
      expect(runCli(["migrate", "sideways"], {}, temp.dir).stderr).toContain(
        "migrate takes no argument or 'up' (got 'sideways')",
      );
      expect(runCli(["migrate", "up"], {}, temp.dir).status).toBe(0);
    } finally {
      temp.remove();
    }
  });
});

/** A loopback port nothing listens on (taken, then released). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("a database that cannot be reached or opened", () => {
  it.each([
    ["PostgreSQL", "postgres"],
    ["MySQL/MariaDB", "mysql"],
  ])(
    "%s with nothing listening: one line naming engine, host and port, no password, exit 78",
    async (engine, scheme) => {
      const port = await freePort();
      const temp = makeTempDir();
      try {
        for (const command of ["migrate", "serve"]) {
          const r = runCli(
            [command],
            { DATABASE_URL: `${scheme}://op:s3cretpass@127.0.0.1:${port}/openpractice`, PORT: "0" },
            temp.dir,
          );
          expect(r.status).toBe(78);
          expect(r.stderr).toBe(
            `openpractice: cannot reach ${engine} at 127.0.0.1:${port} (connect ECONNREFUSED): check that the server runs and DATABASE_URL's host and port\n`,
          );
          expect(r.stdout).not.toContain("s3cretpass");
        }
      } finally {
        temp.remove();
      }
    },
  );

  it.each(availableEngines().filter((e) => e !== "sqlite"))(
    "[%s] a database that does not exist on a running server: one line, exit 78",
    (engine) => {
      const url = new URL(
        process.env[engine === "postgres" ? "OPENPRACTICE_TEST_POSTGRES_URL" : "OPENPRACTICE_TEST_MYSQL_URL"]!,
      );
      url.pathname = "/no_such_database";
      const temp = makeTempDir();
      try {
        const r = runCli(["migrate"], { DATABASE_URL: url.toString() }, temp.dir);
        expect(r.status).toBe(78);
        const lines = r.stderr.trim().split("\n");
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatch(
          new RegExp(
            `^openpractice: (PostgreSQL|MySQL/MariaDB) at ${url.hostname}:${url.port} refused user '${decodeURIComponent(url.username)}' or the database \\(.*no_such_database.*\\): check DATABASE_URL's user, password and database name$`,
          ),
        );
      } finally {
        temp.remove();
      }
    },
  );

  it("SQLite in a folder that cannot be created: one line naming the file, exit 78", () => {
    const temp = makeTempDir();
    try {
      writeFileSync(join(temp.dir, "not-a-folder"), "");
      const file = join(temp.dir, "not-a-folder", "op.db");
      const r = runCli(["migrate"], { DATABASE_URL: `sqlite:${file}` }, temp.dir);
      expect(r.status).toBe(78);
      const lines = r.stderr.trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        new RegExp(
          `^openpractice: cannot open the SQLite database ${file} \\((EEXIST|ENOTDIR): .*\\): check that its folder exists or can be created and that this user can write to it`,
        ),
      );
    } finally {
      temp.remove();
    }
  });
});
