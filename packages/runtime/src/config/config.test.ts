import { describe, expect, it } from "vitest";
import webpush from "web-push";
import { ConfigError, loadConfig } from "./config.js";

describe("runtime configuration", () => {
  it("defaults to the embedded database on 127.0.0.1:8080", () => {
    expect(loadConfig({})).toEqual({
      port: 8080,
      host: "127.0.0.1",
      databaseUrl: "sqlite:./data/openpractice.db",
      databaseReadUrls: [],
      readYourWritesMs: 5000,
      dataDir: "./data",
      jwtSecret: undefined,
      jwksUrl: undefined,
      jwtIssuer: undefined,
      jwtAudience: [],
      jwksSkipIssuerAudienceCheck: false,
      jwtMaxLifetimeSeconds: 86_400,
      accessTokenLifetimeSeconds: 3_600,
      publicUrl: undefined,
      trustForwardedProto: false,
      metricsPort: undefined,
      metricsHost: "127.0.0.1",
      env: "production",
      logLevel: "info",
      planLimits: {},
      shutdownTimeoutMs: 10_000,
      workerPollMs: 1_000,
      jobLeaseMs: 3_000,
      searchCountLimit: 1_000,
      webhookSecretKey: undefined,
      backupKey: undefined,
      webhookAllowedHosts: [],
      webhookRotationGraceSeconds: 0,
      waitlistOfferMinutes: 30,
      clearinghouses: new Map(),
      documentStore: { kind: "filesystem", directory: "./data/documents" },
      clamd: undefined,
      documentMaxBytes: 25 * 1024 * 1024,
      bulkExportResourcesPerFile: 50_000,
      bulkExportRetentionHours: 24,
      vapidKeys: undefined,
      vapidSubject: "mailto:push@openpractice.invalid",
      pushAllowedHosts: [],
      pushRetries: 4,
      pushRetryBaseMs: 1_000,
      workers: undefined,
      summaryThreads: 1,
    });
  });

  it("binds an identity provider's tokens: a JWKS URL needs an issuer and an audience, skipped only in development", () => {
    const jwks = { OPENPRACTICE_JWKS_URL: "https://idp.example/jwks" };
    expect(() => loadConfig(jwks)).toThrow(
      /^OPENPRACTICE_JWT_ISSUER: is required with OPENPRACTICE_JWKS_URL \(the identity provider's iss, .*\): without it any token the provider signs for another application would be accepted$/,
    );
    expect(() => loadConfig({ ...jwks, OPENPRACTICE_JWT_ISSUER: "https://idp.example/" })).toThrow(
      /^OPENPRACTICE_JWT_AUDIENCE: is required with OPENPRACTICE_JWKS_URL \(this API's aud/,
    );
    expect(() =>
      loadConfig({ ...jwks, OPENPRACTICE_JWT_ISSUER: "https://idp.example/", OPENPRACTICE_JWT_AUDIENCE: " , " }),
    ).toThrow(/^OPENPRACTICE_JWT_AUDIENCE: is required/);
    const skip = { ...jwks, OPENPRACTICE_JWKS_SKIP_ISSUER_AUDIENCE_CHECK: "true" };
    expect(() => loadConfig(skip)).toThrow(
      /^OPENPRACTICE_JWKS_SKIP_ISSUER_AUDIENCE_CHECK: is for development only \(OPENPRACTICE_ENV=development\)/,
    );
    expect(loadConfig({ ...skip, OPENPRACTICE_ENV: "development" })).toMatchObject({
      jwtIssuer: undefined,
      jwtAudience: [],
      jwksSkipIssuerAudienceCheck: true,
    });
    expect(() => loadConfig({ ...skip, OPENPRACTICE_JWKS_SKIP_ISSUER_AUDIENCE_CHECK: "yes" })).toThrow(
      /^OPENPRACTICE_JWKS_SKIP_ISSUER_AUDIENCE_CHECK: must be one of true, false/,
    );
    expect(() => loadConfig({ OPENPRACTICE_JWT_ISSUER: "https://idp.example/" })).toThrow(
      /^OPENPRACTICE_JWT_ISSUER: names the identity provider, so it needs OPENPRACTICE_JWKS_URL/,
    );
    // Without an identity provider an audience names this API in its own tokens.
    expect(loadConfig({ OPENPRACTICE_JWT_AUDIENCE: "api://openpractice" }).jwtAudience).toEqual(["api://openpractice"]);
  });

  it("reads and converts every variable, treating empty values as unset", () => {
    const c = loadConfig({
      PORT: "9000",
      HOST: "0.0.0.0",
      LOG_LEVEL: "debug",
      OPENPRACTICE_ENV: "development",
      OPENPRACTICE_PLAN_LIMITS: '{"free":5}',
      OPENPRACTICE_JWKS_URL: "https://idp.example/jwks",
      OPENPRACTICE_JWT_ISSUER: "https://idp.example/",
      OPENPRACTICE_JWT_AUDIENCE: " https://api.clinic.example , api://openpractice ",
      OPENPRACTICE_DATA_DIR: "",
    });
    expect(c).toMatchObject({
      port: 9000,
      host: "0.0.0.0",
      logLevel: "debug",
      env: "development",
      planLimits: { free: 5 },
      jwksUrl: "https://idp.example/jwks",
      jwtIssuer: "https://idp.example/",
      jwtAudience: ["https://api.clinic.example", "api://openpractice"],
      jwksSkipIssuerAudienceCheck: false,
      dataDir: "./data",
    });
    expect(loadConfig({ OPENPRACTICE_DATA_DIR: "/srv/op/" }).databaseUrl).toBe("sqlite:/srv/op/openpractice.db");
    expect(Object.isFrozen(c)).toBe(true);
    expect(loadConfig({ OPENPRACTICE_SEARCH_COUNT_LIMIT: "0" }).searchCountLimit).toBeNull();
    expect(() => loadConfig({ OPENPRACTICE_JOB_LEASE_MS: "500" })).toThrow(/^OPENPRACTICE_JOB_LEASE_MS: /);
    expect(loadConfig({ OPENPRACTICE_JOB_LEASE_MS: "5000" }).jobLeaseMs).toBe(5_000);
    expect(loadConfig({ OPENPRACTICE_WEBHOOK_ALLOWED_HOSTS: " Hooks.Internal ,10.0.0.5" }).webhookAllowedHosts).toEqual(
      ["hooks.internal", "10.0.0.5"],
    );
    expect(() => loadConfig({ OPENPRACTICE_WEBHOOK_SECRET_KEY: "abc" })).toThrow(
      "OPENPRACTICE_WEBHOOK_SECRET_KEY: must be 64 hex characters (32 bytes) (got '[hidden]')",
    );
    // A lower-case identity is still a secret: refused without being echoed.
    expect(() => loadConfig({ OPENPRACTICE_BACKUP_KEY: `age-secret-key-1${"q".repeat(58)}` })).toThrow(
      "OPENPRACTICE_BACKUP_KEY: must be an age identity, AGE-SECRET-KEY-1 and 58 more characters (age-keygen) (got '[hidden]')",
    );
    const identity = `AGE-SECRET-KEY-1${"Q".repeat(58)}`;
    expect(loadConfig({ OPENPRACTICE_BACKUP_KEY: identity }).backupKey).toBe(identity);
    expect(loadConfig({ OPENPRACTICE_SEARCH_COUNT_LIMIT: "250" }).searchCountLimit).toBe(250);
    expect(loadConfig({ OPENPRACTICE_JWT_MAX_LIFETIME_SECONDS: "3600" }).jwtMaxLifetimeSeconds).toBe(3600);
    expect(() => loadConfig({ OPENPRACTICE_JWT_MAX_LIFETIME_SECONDS: "59" })).toThrow(
      /^OPENPRACTICE_JWT_MAX_LIFETIME_SECONDS: /,
    );
    expect(() => loadConfig({ OPENPRACTICE_JWT_MAX_LIFETIME_SECONDS: "1e300" })).toThrow(
      /^OPENPRACTICE_JWT_MAX_LIFETIME_SECONDS: /,
    );
    expect(() => loadConfig({ OPENPRACTICE_SEARCH_COUNT_LIMIT: "many" })).toThrow(/^OPENPRACTICE_SEARCH_COUNT_LIMIT: /);
  });

  it("never echoes a secret and masks passwords in URLs", () => {
    expect(() => loadConfig({ OPENPRACTICE_JWT_SECRET: "hunter2" })).toThrow(
      "OPENPRACTICE_JWT_SECRET: must be at least 32 characters long (HS256 needs 256 bits) (got '[hidden]')",
    );
    expect(() => loadConfig({ DATABASE_URL: "ftp://admin:s3cret@db/x" })).toThrow(
      "DATABASE_URL: must start with sqlite:, postgres:// or mysql:// (got 'ftp://admin:***@db/x')",
    );
  });

  it("takes a VAPID pair only whole and matching, never echoing the private key", () => {
    const pair = webpush.generateVAPIDKeys();
    const other = webpush.generateVAPIDKeys();
    expect(
      loadConfig({
        OPENPRACTICE_VAPID_PUBLIC_KEY: pair.publicKey,
        OPENPRACTICE_VAPID_PRIVATE_KEY: pair.privateKey,
        OPENPRACTICE_VAPID_SUBJECT: "mailto:it@clinic.example",
      }),
    ).toMatchObject({ vapidKeys: pair, vapidSubject: "mailto:it@clinic.example" });
    expect(() => loadConfig({ OPENPRACTICE_VAPID_PUBLIC_KEY: pair.publicKey })).toThrow(
      /^OPENPRACTICE_VAPID_PRIVATE_KEY: must be set together with OPENPRACTICE_VAPID_PUBLIC_KEY/,
    );
    expect(() =>
      loadConfig({ OPENPRACTICE_VAPID_PUBLIC_KEY: other.publicKey, OPENPRACTICE_VAPID_PRIVATE_KEY: pair.privateKey }),
    ).toThrow("OPENPRACTICE_VAPID_PUBLIC_KEY: is not the public key of OPENPRACTICE_VAPID_PRIVATE_KEY");
    expect(() => loadConfig({ OPENPRACTICE_VAPID_PRIVATE_KEY: "short" })).toThrow(
      "OPENPRACTICE_VAPID_PRIVATE_KEY: must be a base64url P-256 private key (43 characters) (got '[hidden]')",
    );
    expect(() => loadConfig({ OPENPRACTICE_VAPID_SUBJECT: "admin@clinic.example" })).toThrow(
      /^OPENPRACTICE_VAPID_SUBJECT: must be a mailto: address or an https: URL/,
    );
    expect(
      loadConfig({
        OPENPRACTICE_PUSH_RETRIES: "0",
        OPENPRACTICE_PUSH_RETRY_BASE_MS: "250",
        OPENPRACTICE_PUSH_ALLOWED_HOSTS: "Push.Internal",
      }),
    ).toMatchObject({ pushRetries: 0, pushRetryBaseMs: 250, pushAllowedHosts: ["push.internal"] });
    expect(() => loadConfig({ OPENPRACTICE_PUSH_RETRIES: "11" })).toThrow(/^OPENPRACTICE_PUSH_RETRIES: /);
  });

  it("reads OPENPRACTICE_WORKERS as a whole number of processes from 1 to 256", () => {
    expect(loadConfig({}).workers).toBeUndefined();
    expect(loadConfig({ OPENPRACTICE_WORKERS: "4" }).workers).toBe(4);
    for (const bad of ["0", "-1", "1.5", "two", "257"])
      expect(() => loadConfig({ OPENPRACTICE_WORKERS: bad })).toThrow(
        new RegExp(`^OPENPRACTICE_WORKERS: .*\\(got '${bad.replace(".", "\\.")}'\\)$`),
      );
  });

  it("reads OPENPRACTICE_SUMMARY_THREADS as 0 to 16 PDF threads, default 1", () => {
    expect(loadConfig({}).summaryThreads).toBe(1);
    expect(loadConfig({ OPENPRACTICE_SUMMARY_THREADS: "0" }).summaryThreads).toBe(0);
    expect(loadConfig({ OPENPRACTICE_SUMMARY_THREADS: "4" }).summaryThreads).toBe(4);
    for (const bad of ["-1", "1.5", "17", "many"])
      expect(() => loadConfig({ OPENPRACTICE_SUMMARY_THREADS: bad })).toThrow(/^OPENPRACTICE_SUMMARY_THREADS: /);
  });

  it("throws a ConfigError naming the variable", () => {
    expect(() => loadConfig({ OPENPRACTICE_SHUTDOWN_TIMEOUT_MS: "-1" })).toThrow(ConfigError);
    expect(() => loadConfig({ OPENPRACTICE_SHUTDOWN_TIMEOUT_MS: "-1" })).toThrow(/^OPENPRACTICE_SHUTDOWN_TIMEOUT_MS: /);
  });

  it("keeps issued tokens within the accepted lifetime", () => {
    expect(loadConfig({ OPENPRACTICE_ACCESS_TOKEN_LIFETIME_SECONDS: "600" }).accessTokenLifetimeSeconds).toBe(600);
    expect(loadConfig({ OPENPRACTICE_JWT_MAX_LIFETIME_SECONDS: "300" }).accessTokenLifetimeSeconds).toBe(300);
    expect(() =>
      loadConfig({ OPENPRACTICE_JWT_MAX_LIFETIME_SECONDS: "300", OPENPRACTICE_ACCESS_TOKEN_LIFETIME_SECONDS: "600" }),
    ).toThrow(/^OPENPRACTICE_ACCESS_TOKEN_LIFETIME_SECONDS: must be at most/);
    expect(() => loadConfig({ OPENPRACTICE_ACCESS_TOKEN_LIFETIME_SECONDS: "30" })).toThrow(
      /^OPENPRACTICE_ACCESS_TOKEN_LIFETIME_SECONDS: /,
    );
  });
});
