import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.js";

describe("runtime configuration", () => {
  it("defaults to the embedded database on 127.0.0.1:8080", () => {
    expect(loadConfig({})).toEqual({
      port: 8080,
      host: "127.0.0.1",
      databaseUrl: "sqlite:./data/openpractice.db",
      dataDir: "./data",
      jwtSecret: undefined,
      jwksUrl: undefined,
      env: "production",
      logLevel: "info",
      planLimits: {},
      shutdownTimeoutMs: 10_000,
      workerPollMs: 1_000,
      jobLeaseMs: 60_000,
      searchCountLimit: 1_000,
      webhookSecretKey: undefined,
      webhookAllowedHosts: [],
    });
  });

  it("reads and converts every variable, treating empty values as unset", () => {
    const c = loadConfig({ PORT: "9000", HOST: "0.0.0.0", LOG_LEVEL: "debug", OPENPRACTICE_ENV: "development", OPENPRACTICE_PLAN_LIMITS: '{"free":5}', OPENPRACTICE_JWKS_URL: "https://idp.example/jwks", OPENPRACTICE_DATA_DIR: "" });
    expect(c).toMatchObject({ port: 9000, host: "0.0.0.0", logLevel: "debug", env: "development", planLimits: { free: 5 }, jwksUrl: "https://idp.example/jwks", dataDir: "./data" });
    expect(loadConfig({ OPENPRACTICE_DATA_DIR: "/srv/op/" }).databaseUrl).toBe("sqlite:/srv/op/openpractice.db");
    expect(Object.isFrozen(c)).toBe(true);
    expect(loadConfig({ OPENPRACTICE_SEARCH_COUNT_LIMIT: "0" }).searchCountLimit).toBeNull();
    expect(() => loadConfig({ OPENPRACTICE_JOB_LEASE_MS: "5000" })).toThrow(/^OPENPRACTICE_JOB_LEASE_MS: /);
    expect(loadConfig({ OPENPRACTICE_WEBHOOK_ALLOWED_HOSTS: " Hooks.Internal ,10.0.0.5" }).webhookAllowedHosts).toEqual(["hooks.internal", "10.0.0.5"]);
    expect(() => loadConfig({ OPENPRACTICE_WEBHOOK_SECRET_KEY: "abc" })).toThrow("OPENPRACTICE_WEBHOOK_SECRET_KEY: must be 64 hex characters (32 bytes) (got '[hidden]')");
    expect(loadConfig({ OPENPRACTICE_SEARCH_COUNT_LIMIT: "250" }).searchCountLimit).toBe(250);
    expect(() => loadConfig({ OPENPRACTICE_SEARCH_COUNT_LIMIT: "many" })).toThrow(/^OPENPRACTICE_SEARCH_COUNT_LIMIT: /);
  });

  it("never echoes a secret and masks passwords in URLs", () => {
    expect(() => loadConfig({ OPENPRACTICE_JWT_SECRET: "hunter2" })).toThrow("OPENPRACTICE_JWT_SECRET: must be at least 32 characters long (HS256 needs 256 bits) (got '[hidden]')");
    expect(() => loadConfig({ DATABASE_URL: "ftp://admin:s3cret@db/x" })).toThrow("DATABASE_URL: must start with sqlite:, postgres:// or mysql:// (got 'ftp://admin:***@db/x')");
  });

  it("throws a ConfigError naming the variable", () => {
    expect(() => loadConfig({ OPENPRACTICE_SHUTDOWN_TIMEOUT_MS: "-1" })).toThrow(ConfigError);
    expect(() => loadConfig({ OPENPRACTICE_SHUTDOWN_TIMEOUT_MS: "-1" })).toThrow(/^OPENPRACTICE_SHUTDOWN_TIMEOUT_MS: /);
  });
});
