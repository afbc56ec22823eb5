import { describe, expect, it } from "vitest";
import { makeTempDir } from "../support/temp-dir.js";
import { runCli } from "./cli-process.js";

describe("start-up configuration errors", () => {
  it.each([
    ["PORT", "70000", /^openpractice: configuration error: PORT: .*65535.* \(got '70000'\)$/],
    ["PORT", "eighty", /^openpractice: configuration error: PORT: .*number.* \(got 'eighty'\)$/],
    ["LOG_LEVEL", "loud", /^openpractice: configuration error: LOG_LEVEL: .*fatal, error, warn, info, debug, trace, silent.*\(got 'loud'\)$/],
    ["OPENPRACTICE_ENV", "staging", /^openpractice: configuration error: OPENPRACTICE_ENV: .*development, production/],
    ["OPENPRACTICE_JWT_SECRET", "short", /^openpractice: configuration error: OPENPRACTICE_JWT_SECRET: must be at least 32 characters long/],
    ["OPENPRACTICE_JWKS_URL", "not a url", /^openpractice: configuration error: OPENPRACTICE_JWKS_URL: .*URL/],
    ["OPENPRACTICE_JWT_MAX_LIFETIME_SECONDS", "0", /^openpractice: configuration error: OPENPRACTICE_JWT_MAX_LIFETIME_SECONDS: .*60.* \(got '0'\)$/],
    ["DATABASE_URL", "ftp://db", /^openpractice: configuration error: DATABASE_URL: must start with sqlite:, postgres:\/\/ or mysql:\/\//],
    ["OPENPRACTICE_PLAN_LIMITS", "{bad", /^openpractice: configuration error: OPENPRACTICE_PLAN_LIMITS: must be a JSON object/],
    ["OPENPRACTICE_PLAN_LIMITS", '{"gold":5}', /^openpractice: configuration error: OPENPRACTICE_PLAN_LIMITS: unknown plan 'gold'/],
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
});
