import type { Clearinghouse } from "@openpractice/x12";
import { parseClearinghouses } from "./clearinghouses.js";
import {
  type ClamdConfig,
  clamdConfig,
  DOCUMENT_VARIABLES,
  type DocumentStoreConfig,
  documentStoreConfig,
} from "./documents-config.js";
import Validator from "fastest-validator";
import { DEFAULT_READ_YOUR_WRITES_MS, PLANS, type Plan, type PracticeEnvironmentSettings } from "@openpractice/core";
import { practiceOptionSchema, practiceOptionValues } from "./practice-options.js";
import { DEFAULT_MAX_TOKEN_LIFETIME_SECONDS } from "@openpractice/http";
import { vapidPairMatches, type VapidKeys } from "./vapid-keys.js";
import { AGE_IDENTITY_PATTERN } from "./backup-key.js";
import { DEFAULT_LEASE_MS, DEFAULT_PUSH_RETRY } from "@openpractice/worker";
import { ConfigError } from "./config-error.js";

export { ConfigError };

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/**
 * The runtime's configuration, read from the environment once at start-up and frozen. The core modules' options
 * (searchCountLimit, webhookRotationGraceSeconds, waitlistOfferMinutes, …) come from their variables
 * (OPENPRACTICE_SEARCH_COUNT_LIMIT, …; config/practice-options.ts).
 */
export interface RuntimeConfig extends PracticeEnvironmentSettings {
  port: number;
  host: string;
  databaseUrl: string;
  /** Read replicas of the DATABASE_URL server for list and search reads (DATABASE_READ_URL); empty: none. */
  databaseReadUrls: readonly string[];
  /** How long after an organisation's write its list reads stay on the primary (milliseconds, per process). */
  readYourWritesMs: number;
  dataDir: string;
  jwtSecret: string | undefined;
  jwksUrl: string | undefined;
  /** The identity provider's iss (OPENPRACTICE_JWT_ISSUER): required with jwksUrl. */
  jwtIssuer: string | undefined;
  /** This API's aud values (OPENPRACTICE_JWT_AUDIENCE, comma-separated): required with jwksUrl; the first is ours. */
  jwtAudience: readonly string[];
  /** Development only: the identity provider's tokens are accepted whatever their iss and aud. */
  jwksSkipIssuerAudienceCheck: boolean;
  /** The longest accepted token lifetime in seconds (exp − iat, and exp − now). */
  jwtMaxLifetimeSeconds: number;
  /** Where GET /metrics is served (a listener of its own, never the API's port); undefined: no metrics. */
  metricsPort: number | undefined;
  metricsHost: string;
  /** The URL clients reach the API at (behind a TLS proxy, say): the tokens' iss and the OAuth metadata use it. */
  publicUrl: string | undefined;
  /** Believe X-Forwarded-Proto: https for HSTS (a proxy that terminates TLS sets it on every request). */
  trustForwardedProto: boolean;
  /** Lifetime of the tokens POST /oauth/token issues (at most jwtMaxLifetimeSeconds). */
  accessTokenLifetimeSeconds: number;
  env: "development" | "production";
  logLevel: (typeof LOG_LEVELS)[number];
  planLimits: Partial<Record<Plan, number>>;
  shutdownTimeoutMs: number;
  /** How often the job runner looks for due jobs. */
  workerPollMs: number;
  /** The lease of a claimed job and of the webhook fan-out lock, renewed while held: how long a crashed process's claims block others. */
  jobLeaseMs: number;
  /** 64 hex characters: the key that encrypts webhook signature keys (generated into the data directory when unset). */
  webhookSecretKey: string | undefined;
  /** The age identity of encrypted backups (OPENPRACTICE_BACKUP_KEY); undefined: `<dataDir>/backup-key`. */
  backupKey: string | undefined;
  /** Each organisation's clearinghouse for real-time eligibility (OPENPRACTICE_ELIGIBILITY_CLEARINGHOUSES). */
  clearinghouses: ReadonlyMap<number, Clearinghouse>;
  /** Where patient documents' sealed bytes go (OPENPRACTICE_DOCUMENT_STORE; default the data directory's documents/). */
  documentStore: DocumentStoreConfig;
  /** The clamd uploads are scanned with (OPENPRACTICE_CLAMD); undefined: served unscanned. */
  clamd: ClamdConfig | undefined;
  /** Hosts webhooks may reach even when they resolve to private or loopback addresses. */
  webhookAllowedHosts: string[];
  /** The VAPID key pair from the environment; undefined: read or generated in the data directory. */
  vapidKeys: VapidKeys | undefined;
  /** The VAPID JWT's sub claim: a mailto: or https: contact for push services. */
  vapidSubject: string;
  /** Push services' hosts allowed even when they resolve to private or loopback addresses. */
  pushAllowedHosts: string[];
  /** Retries of one device's push after a 429, 5xx or no answer, and the first backoff delay. */
  pushRetries: number;
  pushRetryBaseMs: number;
  /** Processes `serve` runs (OPENPRACTICE_WORKERS); undefined: the default for the engine (serve-workers.ts). */
  workers: number | undefined;
  /** Worker threads per process that render PDF summaries; 0 renders on the event loop. */
  summaryThreads: number;
}

/** One variable, its meaning and default: the source of docs/configuration.md's table. */
const schema = {
  PORT: { type: "number", integer: true, min: 0, max: 65535, convert: true, optional: true },
  HOST: { type: "string", empty: false, optional: true },
  DATABASE_URL: {
    type: "string",
    pattern: /^(sqlite:|postgres(ql)?:\/\/|mysql:\/\/)/,
    messages: { stringPattern: "must start with sqlite:, postgres:// or mysql://" },
    optional: true,
  },
  DATABASE_READ_URL: { type: "string", optional: true },
  OPENPRACTICE_READ_YOUR_WRITES_MS: {
    type: "number",
    integer: true,
    min: 0,
    max: 600_000,
    convert: true,
    optional: true,
  },
  OPENPRACTICE_DATA_DIR: { type: "string", empty: false, optional: true },
  OPENPRACTICE_JWT_SECRET: {
    type: "string",
    min: 32,
    messages: { stringMin: "must be at least 32 characters long (HS256 needs 256 bits)" },
    optional: true,
  },
  OPENPRACTICE_JWKS_URL: { type: "url", optional: true },
  OPENPRACTICE_JWT_ISSUER: { type: "string", empty: false, optional: true },
  OPENPRACTICE_JWT_AUDIENCE: { type: "string", empty: false, optional: true },
  OPENPRACTICE_JWKS_SKIP_ISSUER_AUDIENCE_CHECK: {
    type: "enum",
    values: ["true", "false"],
    messages: { enumValue: "must be one of {expected}" },
    optional: true,
  },
  OPENPRACTICE_JWT_MAX_LIFETIME_SECONDS: {
    type: "number",
    integer: true,
    min: 60,
    max: 31_536_000,
    convert: true,
    optional: true,
  },
  OPENPRACTICE_PUBLIC_URL: { type: "url", optional: true },
  OPENPRACTICE_TRUST_FORWARDED_PROTO: {
    type: "enum",
    values: ["true", "false"],
    messages: { enumValue: "must be true or false" },
    optional: true,
  },
  OPENPRACTICE_METRICS_PORT: { type: "number", integer: true, min: 0, max: 65535, convert: true, optional: true },
  OPENPRACTICE_METRICS_HOST: { type: "string", empty: false, optional: true },
  OPENPRACTICE_ACCESS_TOKEN_LIFETIME_SECONDS: {
    type: "number",
    integer: true,
    min: 60,
    max: 86_400,
    convert: true,
    optional: true,
  },
  OPENPRACTICE_ENV: {
    type: "enum",
    values: ["development", "production"],
    messages: { enumValue: "must be one of {expected}" },
    optional: true,
  },
  LOG_LEVEL: {
    type: "enum",
    values: [...LOG_LEVELS],
    messages: { enumValue: "must be one of {expected}" },
    optional: true,
  },
  OPENPRACTICE_PLAN_LIMITS: { type: "string", optional: true },
  OPENPRACTICE_ELIGIBILITY_CLEARINGHOUSES: { type: "string", optional: true },
  ...DOCUMENT_VARIABLES,
  OPENPRACTICE_SHUTDOWN_TIMEOUT_MS: {
    type: "number",
    integer: true,
    min: 0,
    max: 600000,
    convert: true,
    optional: true,
  },
  OPENPRACTICE_WORKER_POLL_MS: { type: "number", integer: true, min: 10, max: 60000, convert: true, optional: true },
  OPENPRACTICE_JOB_LEASE_MS: { type: "number", integer: true, min: 1000, max: 3600000, convert: true, optional: true },
  OPENPRACTICE_WEBHOOK_SECRET_KEY: {
    type: "string",
    pattern: /^[0-9a-fA-F]{64}$/,
    messages: { stringPattern: "must be 64 hex characters (32 bytes)" },
    optional: true,
  },
  OPENPRACTICE_WEBHOOK_ALLOWED_HOSTS: { type: "string", optional: true },
  OPENPRACTICE_BACKUP_KEY: {
    type: "string",
    pattern: AGE_IDENTITY_PATTERN,
    messages: { stringPattern: "must be an age identity, AGE-SECRET-KEY-1 and 58 more characters (age-keygen)" },
    optional: true,
  },
  OPENPRACTICE_VAPID_PUBLIC_KEY: {
    type: "string",
    pattern: /^[A-Za-z0-9_-]{87}$/,
    messages: { stringPattern: "must be a base64url P-256 public key (87 characters)" },
    optional: true,
  },
  OPENPRACTICE_VAPID_PRIVATE_KEY: {
    type: "string",
    pattern: /^[A-Za-z0-9_-]{43}$/,
    messages: { stringPattern: "must be a base64url P-256 private key (43 characters)" },
    optional: true,
  },
  OPENPRACTICE_VAPID_SUBJECT: {
    type: "string",
    pattern: /^(mailto:\S+@\S+|https:\/\/\S+)$/,
    messages: { stringPattern: "must be a mailto: address or an https: URL" },
    optional: true,
  },
  OPENPRACTICE_PUSH_ALLOWED_HOSTS: { type: "string", optional: true },
  OPENPRACTICE_PUSH_RETRIES: { type: "number", integer: true, min: 0, max: 10, convert: true, optional: true },
  OPENPRACTICE_PUSH_RETRY_BASE_MS: {
    type: "number",
    integer: true,
    min: 10,
    max: 60000,
    convert: true,
    optional: true,
  },
  OPENPRACTICE_WORKERS: {
    type: "number",
    integer: true,
    min: 1,
    max: 256,
    convert: true,
    optional: true,
  },
  OPENPRACTICE_SUMMARY_THREADS: { type: "number", integer: true, min: 0, max: 16, convert: true, optional: true },
  // The core modules' options: one variable each (OPENPRACTICE_WAITLIST_OFFER_MINUTES, ...).
  ...practiceOptionSchema(),
} as const;

/** Variables whose values must never be echoed (a too-short secret is still a secret). */
const SECRET_VARIABLES = new Set([
  "OPENPRACTICE_JWT_SECRET",
  "OPENPRACTICE_WEBHOOK_SECRET_KEY",
  "OPENPRACTICE_VAPID_PRIVATE_KEY",
  "OPENPRACTICE_BACKUP_KEY",
]);

/** The value as it may appear in an error line: secrets hidden, URL passwords masked. */
function printable(name: string, value: string | undefined): string {
  if (SECRET_VARIABLES.has(name)) return "[hidden]";
  return String(value).replace(/(\/\/[^/:@\s]*:)[^@/\s]*@/, "$1***@");
}

function parsePlanLimits(raw: string | undefined): Partial<Record<Plan, number>> {
  if (raw === undefined || raw.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError(`OPENPRACTICE_PLAN_LIMITS: must be a JSON object such as {"enterprise":5000} (got '${raw}')`);
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed))
    throw new ConfigError("OPENPRACTICE_PLAN_LIMITS: must be a JSON object of plan → requests per minute");
  const out: Partial<Record<Plan, number>> = {};
  for (const [plan, limit] of Object.entries(parsed)) {
    if (!PLANS.includes(plan as Plan))
      throw new ConfigError(`OPENPRACTICE_PLAN_LIMITS: unknown plan '${plan}' (known: ${PLANS.join(", ")})`);
    if (!Number.isInteger(limit) || (limit as number) < 1)
      throw new ConfigError(`OPENPRACTICE_PLAN_LIMITS: limit of '${plan}' must be a positive integer`);
    out[plan as Plan] = limit as number;
  }
  return out;
}

/** A placeholder contact: push services accept it, but one that reaches you is better (OPENPRACTICE_VAPID_SUBJECT). */
export const DEFAULT_VAPID_SUBJECT = "mailto:push@openpractice.invalid";

/** A comma-separated host list, lower-cased. */
const hostList = (raw: unknown) =>
  Object.freeze(
    String(raw ?? "")
      .split(",")
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
  ) as string[];

/** Both VAPID keys or neither, and a pair that belongs together: a mismatch would sign with a key no browser subscribed to. */
function vapidKeys(publicKey: string | undefined, privateKey: string | undefined): VapidKeys | undefined {
  if (!publicKey && !privateKey) return undefined;
  if (!publicKey || !privateKey)
    throw new ConfigError(
      `${publicKey ? "OPENPRACTICE_VAPID_PRIVATE_KEY" : "OPENPRACTICE_VAPID_PUBLIC_KEY"}: must be set together with ${publicKey ? "OPENPRACTICE_VAPID_PUBLIC_KEY" : "OPENPRACTICE_VAPID_PRIVATE_KEY"} (or leave both unset to generate a pair)`,
    );
  if (!vapidPairMatches({ publicKey, privateKey }))
    throw new ConfigError("OPENPRACTICE_VAPID_PUBLIC_KEY: is not the public key of OPENPRACTICE_VAPID_PRIVATE_KEY");
  return Object.freeze({ publicKey, privateKey });
}

/**
 * DATABASE_READ_URL: comma-separated URLs of the DATABASE_URL engine. SQLite is one file with one writer, so it
 * has no replicas to read from.
 */
function readUrls(raw: string | undefined, databaseUrl: string): string[] {
  if (raw === undefined) return [];
  const urls = raw
    .split(",")
    .map((u) => u.trim())
    .filter((u) => u !== "");
  if (urls.length === 0) return [];
  if (databaseUrl.startsWith("sqlite:"))
    throw new ConfigError(
      `DATABASE_READ_URL: read replicas need a PostgreSQL or MySQL DATABASE_URL; SQLite has none (got '${printable("DATABASE_READ_URL", raw)}')`,
    );
  const engine = (url: string) =>
    url.startsWith("mysql://") ? "mysql" : /^postgres(ql)?:\/\//.test(url) ? "postgres" : "";
  for (const url of urls)
    if (engine(url) !== engine(databaseUrl))
      throw new ConfigError(
        `DATABASE_READ_URL: every URL must name a replica of the DATABASE_URL engine (${engine(databaseUrl) === "mysql" ? "mysql://" : "postgres://"}) (got '${printable("DATABASE_READ_URL", url)}')`,
      );
  return urls;
}

/**
 * The identity provider binding: with a JWKS URL, its tokens must name the provider (iss) and this API (aud), since
 * one provider signs with the same keys for every application of its tenant. Only development may skip it.
 */
function tokenBinding(input: Record<string, unknown>, env: RuntimeConfig["env"]) {
  const jwksUrl = input.OPENPRACTICE_JWKS_URL as string | undefined;
  const jwtIssuer = (input.OPENPRACTICE_JWT_ISSUER as string | undefined)?.trim();
  const jwtAudience = String(input.OPENPRACTICE_JWT_AUDIENCE ?? "")
    .split(",")
    .map((a) => a.trim())
    .filter(Boolean);
  const skip = input.OPENPRACTICE_JWKS_SKIP_ISSUER_AUDIENCE_CHECK === "true";
  if (skip && env !== "development")
    throw new ConfigError(
      "OPENPRACTICE_JWKS_SKIP_ISSUER_AUDIENCE_CHECK: is for development only (OPENPRACTICE_ENV=development): it lets in every token the identity provider signs for any application",
    );
  if (jwtIssuer !== undefined && !jwksUrl)
    throw new ConfigError(
      "OPENPRACTICE_JWT_ISSUER: names the identity provider, so it needs OPENPRACTICE_JWKS_URL (the provider's keys)",
    );
  if (jwksUrl && !skip)
    for (const [name, missing] of [
      ["OPENPRACTICE_JWT_ISSUER", !jwtIssuer],
      ["OPENPRACTICE_JWT_AUDIENCE", jwtAudience.length === 0],
    ] as const)
      if (missing)
        throw new ConfigError(
          `${name}: is required with OPENPRACTICE_JWKS_URL (${name.endsWith("ISSUER") ? "the identity provider's iss, e.g. https://tenant.example.auth0.com/" : "this API's aud, as registered at the identity provider"}): without it any token the provider signs for another application would be accepted`,
        );
  return {
    jwtIssuer: jwtIssuer || undefined,
    jwtAudience: Object.freeze(jwtAudience),
    jwksSkipIssuerAudienceCheck: skip,
  };
}

/** Reads and validates the environment; throws ConfigError with one line on the first bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): RuntimeConfig {
  const input: Record<string, unknown> = {};
  for (const key of Object.keys(schema)) if (env[key] !== undefined && env[key] !== "") input[key] = env[key];
  const check = new Validator({ useNewCustomCheckerFunction: true }).compile(schema as never);
  const result = check(input);
  if (result !== true) {
    const first = (result as Array<{ field: string; message?: string; actual?: unknown }>)[0];
    if (first) {
      const message = (first.message ?? "is invalid").replace(`The '${first.field}' field`, "").replace(/^\s+/, "");
      throw new ConfigError(`${first.field}: ${message} (got '${printable(first.field, env[first.field])}')`);
    }
  }
  const dataDir = (input.OPENPRACTICE_DATA_DIR as string | undefined) ?? "./data";
  // The embedded database lives in the data directory unless DATABASE_URL says otherwise.
  const databaseUrl =
    (input.DATABASE_URL as string | undefined) ?? `sqlite:${dataDir.replace(/\/+$/, "")}/openpractice.db`;
  const jwtMaxLifetimeSeconds =
    (input.OPENPRACTICE_JWT_MAX_LIFETIME_SECONDS as number | undefined) ?? DEFAULT_MAX_TOKEN_LIFETIME_SECONDS;
  const accessTokenLifetimeSeconds = Math.min(
    (input.OPENPRACTICE_ACCESS_TOKEN_LIFETIME_SECONDS as number | undefined) ?? 3600,
    jwtMaxLifetimeSeconds,
  );
  if (((input.OPENPRACTICE_ACCESS_TOKEN_LIFETIME_SECONDS as number | undefined) ?? 0) > jwtMaxLifetimeSeconds)
    throw new ConfigError(
      `OPENPRACTICE_ACCESS_TOKEN_LIFETIME_SECONDS: must be at most OPENPRACTICE_JWT_MAX_LIFETIME_SECONDS (${jwtMaxLifetimeSeconds}), or the server would refuse its own tokens`,
    );
  const deployment = (input.OPENPRACTICE_ENV as RuntimeConfig["env"] | undefined) ?? "production";
  return Object.freeze({
    port: (input.PORT as number | undefined) ?? 8080,
    host: (input.HOST as string | undefined) ?? "127.0.0.1",
    databaseUrl,
    databaseReadUrls: Object.freeze(readUrls(input.DATABASE_READ_URL as string | undefined, databaseUrl)),
    readYourWritesMs: (input.OPENPRACTICE_READ_YOUR_WRITES_MS as number | undefined) ?? DEFAULT_READ_YOUR_WRITES_MS,
    dataDir,
    jwtSecret: input.OPENPRACTICE_JWT_SECRET as string | undefined,
    jwksUrl: input.OPENPRACTICE_JWKS_URL as string | undefined,
    ...tokenBinding(input, deployment),
    jwtMaxLifetimeSeconds,
    accessTokenLifetimeSeconds,
    metricsPort: input.OPENPRACTICE_METRICS_PORT as number | undefined,
    metricsHost: (input.OPENPRACTICE_METRICS_HOST as string | undefined) ?? "127.0.0.1",
    publicUrl: (input.OPENPRACTICE_PUBLIC_URL as string | undefined)?.replace(/\/+$/, ""),
    trustForwardedProto: input.OPENPRACTICE_TRUST_FORWARDED_PROTO === "true",
    env: deployment,
    logLevel: (input.LOG_LEVEL as RuntimeConfig["logLevel"] | undefined) ?? "info",
    planLimits: Object.freeze(parsePlanLimits(input.OPENPRACTICE_PLAN_LIMITS as string | undefined)),
    shutdownTimeoutMs: (input.OPENPRACTICE_SHUTDOWN_TIMEOUT_MS as number | undefined) ?? 10_000,
    workerPollMs: (input.OPENPRACTICE_WORKER_POLL_MS as number | undefined) ?? 1_000,
    jobLeaseMs: (input.OPENPRACTICE_JOB_LEASE_MS as number | undefined) ?? DEFAULT_LEASE_MS,
    webhookSecretKey: input.OPENPRACTICE_WEBHOOK_SECRET_KEY as string | undefined,
    webhookAllowedHosts: hostList(input.OPENPRACTICE_WEBHOOK_ALLOWED_HOSTS),
    backupKey: input.OPENPRACTICE_BACKUP_KEY as string | undefined,
    clearinghouses: parseClearinghouses(input.OPENPRACTICE_ELIGIBILITY_CLEARINGHOUSES as string | undefined),
    documentStore: documentStoreConfig(input, dataDir),
    clamd: clamdConfig(input),
    vapidKeys: vapidKeys(
      input.OPENPRACTICE_VAPID_PUBLIC_KEY as string | undefined,
      input.OPENPRACTICE_VAPID_PRIVATE_KEY as string | undefined,
    ),
    vapidSubject: (input.OPENPRACTICE_VAPID_SUBJECT as string | undefined) ?? DEFAULT_VAPID_SUBJECT,
    pushAllowedHosts: hostList(input.OPENPRACTICE_PUSH_ALLOWED_HOSTS),
    pushRetries: (input.OPENPRACTICE_PUSH_RETRIES as number | undefined) ?? DEFAULT_PUSH_RETRY.retries,
    pushRetryBaseMs: (input.OPENPRACTICE_PUSH_RETRY_BASE_MS as number | undefined) ?? DEFAULT_PUSH_RETRY.baseDelayMs,
    workers: input.OPENPRACTICE_WORKERS as number | undefined,
    summaryThreads: (input.OPENPRACTICE_SUMMARY_THREADS as number | undefined) ?? 1,
    ...practiceOptionValues(input),
  });
}
