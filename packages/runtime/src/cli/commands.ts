import { createPractice } from "@openpractice/core";
import { resolveRuntimeKeys } from "../config/practice-keys.js";
import { readFileSync } from "node:fs";
import { parse as parseCsv } from "csv-parse/sync";
import { basename } from "node:path";
import { ConfigError, loadConfig, type RuntimeConfig } from "../config/config.js";
import { resolveHs256Secret } from "../config/jwt-secret.js";
import { createLogger } from "../logger.js";
import { startRuntime } from "../runtime.js";
import { seedDemo } from "../seed/seed-demo.js";
import { openStorage } from "../storage-from-url.js";
import { signAccessToken } from "../tokens.js";
import { progressReporter } from "./progress.js";
import { isClusterWorker, parseWorkersFlag, runPrimary, workerCount, workerLogger } from "./serve-workers.js";
import { UsageError } from "./usage-error.js";

/** Rows an import commits at a time: API writes wait for at most one such transaction. */
const IMPORT_BATCH_ROWS = 500;

const positiveInt = (name: string, raw: string | undefined, fallback?: number): number => {
  if (raw === undefined && fallback !== undefined) return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n <= 0)
    throw new UsageError(`--${name} must be a positive integer (got '${raw ?? ""}')`);
  return n;
};

export { UsageError };

/**
 * `openpractice serve [--workers N]`: runs until SIGTERM or SIGINT, then shuts down gracefully. With more than one
 * worker this process is the primary of a cluster (serve-workers.ts) and each worker, a fork of it, runs the
 * runtime below; with one, the runtime runs right here.
 */
export async function serveCommand(workersFlag?: string): Promise<void> {
  const flag = workersFlag === undefined ? undefined : parseWorkersFlag(workersFlag);
  const config = loadConfig();
  const clusterWorker = isClusterWorker();
  if (!clusterWorker) {
    const count = workerCount(flag, config);
    if (count > 1) return runPrimary(config, count, createLogger(config.logLevel));
  }
  const logger = clusterWorker ? workerLogger(createLogger(config.logLevel)) : createLogger(config.logLevel);
  // The handlers go in before the runtime starts: its listener is open (and a cluster primary told "listening")
  // before startRuntime resolves, and a signal in that gap must still end in the graceful stop, not the default kill.
  const started = startRuntime({ config, logger, clusterWorker });
  const onSignal = (signal: NodeJS.Signals) => {
    logger.info({ signal }, "signal received");
    started
      .then((runtime) => runtime.stop())
      .then(
        () => process.exit(0),
        (error) => {
          logger.error({ err: { message: (error as Error).message } }, "shutdown failed");
          process.exit(1);
        },
      );
  };
  // A worker may get the signal twice, from its primary and from whoever signals the whole process group (systemd,
  // a terminal's Ctrl-C): the second must not kill it mid-request. A single process keeps "a second one forces".
  const subscribe = clusterWorker ? "on" : "once";
  process[subscribe]("SIGTERM", onSignal);
  process[subscribe]("SIGINT", onSignal);
  await started;
}

/**
 * `openpractice migrate [up]`: applies pending migrations and exits. Migrations only go forward: `down` is refused
 * (exit 64) rather than taken for something else, and says how to go back.
 */
export async function migrateCommand(direction: string | undefined): Promise<void> {
  if (direction === "down") {
    throw new UsageError(
      'migrate down is not supported: migrations only go forward. To undo one, stop the server and restore the backup taken before the upgrade (docs/getting-started.md, "Upgrading")',
    );
  }
  if (direction !== undefined && direction !== "up")
    throw new UsageError(`migrate takes no argument or 'up' (got '${direction}')`);
  const config = loadConfig();
  const storage = await openStorage(config.databaseUrl);
  await storage.close();
  process.stdout.write(`${JSON.stringify({ migrated: true, database: config.databaseUrl.split(":")[0] })}\n`);
}

/** `openpractice seed [--org 1] [--patients 50]`: demo data, idempotent; one JSON object on stdout. */
export async function seedCommand(flags: Record<string, string | undefined>): Promise<void> {
  const config = loadConfig();
  const secret = resolveHs256Secret(config)?.secret;
  const storage = await openStorage(config.databaseUrl);
  try {
    const practice = createPractice({ storage, keys: resolveRuntimeKeys(config).keys });
    const summary = await seedDemo(practice, {
      organisationId: positiveInt("org", flags.org, 1),
      patients: positiveInt("patients", flags.patients, 50),
      jwtSecret: secret,
      tokenTtlSeconds: defaultTokenTtl(config),
    });
    process.stdout.write(`${JSON.stringify(summary)}\n`);
  } finally {
    await storage.close();
  }
}

/** 12 hours, or the maximum token lifetime when that is shorter. */
const defaultTokenTtl = (config: RuntimeConfig) => Math.min(12 * 3600, config.jwtMaxLifetimeSeconds);

/** The secret `token` signs with; with an identity provider and no explicit secret the server would refuse any token we sign. */
function tokenSigningSecret(config: RuntimeConfig): string {
  const resolved = resolveHs256Secret(config);
  if (!resolved) {
    throw new ConfigError(
      "OPENPRACTICE_JWKS_URL: is set, so the server accepts only tokens of the identity provider (get one there) or, when OPENPRACTICE_JWT_SECRET is set as well, HS256 tokens signed with that secret",
    );
  }
  return resolved.secret;
}

/** `openpractice token --org 1 --user 10 --scope "read write"`: prints a token signed with the configured (or generated) secret. */
export async function tokenCommand(flags: Record<string, string | undefined>): Promise<void> {
  const config = loadConfig();
  const ttlSeconds = positiveInt("ttl", flags.ttl, defaultTokenTtl(config));
  if (ttlSeconds > config.jwtMaxLifetimeSeconds)
    throw new UsageError(
      `--ttl must be at most ${config.jwtMaxLifetimeSeconds} seconds (OPENPRACTICE_JWT_MAX_LIFETIME_SECONDS), or the server refuses the token`,
    );
  const secret = tokenSigningSecret(config);
  const platform = flags.platform === "true";
  const token = await signAccessToken(secret, {
    platform,
    organisationId: platform ? 0 : positiveInt("org", flags.org),
    userId: flags.user === undefined ? undefined : positiveInt("user", flags.user),
    name: flags.name,
    scope: flags.scope ?? (platform ? "platform:admin" : "read write"),
    clinicIds: flags.clinics ? flags.clinics.split(",").map((c) => positiveInt("clinics", c)) : undefined,
    roles: flags.roles ? flags.roles.split(",").filter(Boolean) : undefined,
    audience: config.jwtAudience[0],
    ttlSeconds,
  });
  process.stdout.write(`${token}\n`);
}

/** `openpractice import icd10cm <file> [--year YYYY]`: one JSON line with the year and the counts. */
export async function importIcdCommand(file: string, flags: Record<string, string | undefined>): Promise<void> {
  const fromName = /(?:^|[^0-9])(20\d\d)(?:[^0-9]|$)/.exec(basename(file))?.[1];
  const year = flags.year !== undefined ? positiveInt("year", flags.year) : fromName ? Number(fromName) : undefined;
  if (year === undefined) throw new UsageError("import icd10cm: give --year (the file name has no code-set year)");
  let text: string;
  try {
    text = readFileSync(file, "latin1");
  } catch (error) {
    throw new UsageError(`import icd10cm: cannot read ${file}: ${(error as Error).message}`);
  }
  const config = loadConfig();
  const storage = await openStorage(config.databaseUrl);
  try {
    const practice = createPractice({ storage, keys: resolveRuntimeKeys(config).keys });
    const onProgress = progressReporter("import icd10cm", "codes");
    const summary = await practice.icd.importOrderFile(text.split("\n"), year, { onProgress }).catch((error: Error) => {
      throw new UsageError(`import icd10cm: ${error.message}`);
    });
    process.stdout.write(`${JSON.stringify({ imported: "icd10cm", ...summary })}\n`);
  } finally {
    await storage.close();
  }
}

const list = (cell: string | undefined) =>
  (cell ?? "")
    .split(";")
    .map((x) => x.trim())
    .filter(Boolean);

/**
 * `openpractice import catalog <csv> [--org N]`: billing codes for the organisation, upserted by number.
 * Columns (header row): code, description, timed (true/false), modifiers ("GP:1;59:2", code:id),
 * specialities, note_types, payer_ids (";"-separated, empty: any), active (default true).
 */
export async function importCatalogCommand(file: string, flags: Record<string, string | undefined>): Promise<void> {
  let rows: Record<string, string>[];
  try {
    rows = parseCsv(readFileSync(file, "utf8"), { columns: true, skip_empty_lines: true, trim: true });
  } catch (error) {
    throw new UsageError(`import catalog: cannot read ${file}: ${(error as Error).message}`);
  }
  const truth = (v: string | undefined, fallback: boolean) =>
    v === undefined || v === "" ? fallback : /^(true|1|yes)$/i.test(v);
  const codes = rows.map((r) => ({
    code: r.code ?? "",
    description: r.description ?? "",
    timed: truth(r.timed, false),
    modifiers: list(r.modifiers).map((m) => {
      const [code, id] = m.split(":");
      return { cptModifierId: Number(id), cptModifierCode: code ?? "", className: "", description: "", filter: false };
    }),
    specialities: list(r.specialities),
    noteTypes: list(r.note_types),
    payerIds: list(r.payer_ids),
    active: truth(r.active, true),
  }));
  const config = loadConfig();
  const storage = await openStorage(config.databaseUrl);
  try {
    const practice = createPractice({ storage, keys: resolveRuntimeKeys(config).keys });
    const organisationId = positiveInt("org", flags.org, 1);
    const principal = {
      organisationId,
      userId: null,
      name: "openpractice import",
      scopes: [],
      clinicIds: [],
      roles: [],
    };
    const result = await practice.billingCatalog
      .upsert(principal, codes, {
        batchSize: IMPORT_BATCH_ROWS,
        onProgress: progressReporter("import catalog", "codes"),
      })
      .catch((error: Error & { details?: { issues?: Array<{ field: string; reason: string }> } }) => {
        const issues = error.details?.issues
          ?.map((i) => `${i.field.replace(/^codes\.(\d+)/, (_m, n) => `row ${Number(n) + 2}`)}: ${i.reason}`)
          .join("; ");
        throw new UsageError(`import catalog: ${issues ?? error.message}`);
      });
    process.stdout.write(`${JSON.stringify({ imported: "catalog", organisation_id: organisationId, ...result })}\n`);
  } finally {
    await storage.close();
  }
}

/**
 * `openpractice import payers <csv>`: the payer registry every organisation sees, upserted by payer id.
 * Columns (header row): payer_id, name, type (commercial, medicare, medicare_advantage, medicaid, tricare,
 * workers_comp, auto, other), eligibility (true/false, default false), medicare_part_b (true/false, default false; only
 * with type medicare). Every row is checked first; a bad one is
 * named by its line and nothing is written.
 */
export async function importPayersCommand(file: string): Promise<void> {
  let rows: Record<string, string>[];
  try {
    rows = parseCsv(readFileSync(file, "utf8"), { columns: true, skip_empty_lines: true, trim: true });
  } catch (error) {
    throw new UsageError(`import payers: cannot read ${file}: ${(error as Error).message}`);
  }
  const payers = rows.map((r) => ({
    payerId: r.payer_id ?? "",
    name: r.name ?? "",
    type: r.type ?? "",
    eligibility: /^(true|1|yes)$/i.test(r.eligibility ?? ""),
    medicarePartB: /^(true|1|yes)$/i.test(r.medicare_part_b ?? ""),
  }));
  const config = loadConfig();
  const storage = await openStorage(config.databaseUrl);
  try {
    const practice = createPractice({ storage, keys: resolveRuntimeKeys(config).keys });
    const result = await practice.payers
      .importRegistry(payers, { batchSize: IMPORT_BATCH_ROWS, onProgress: progressReporter("import payers", "payers") })
      .catch((error: Error & { details?: { issues?: Array<{ field: string; reason: string }> } }) => {
        // rows.<i> is the data row i: line i + 2 of the file (after the header).
        const issues = error.details?.issues
          ?.map((i) => `${i.field.replace(/^rows\.(\d+)\./, (_m, n) => `line ${Number(n) + 2}: `)} ${i.reason}`)
          .join("; ");
        throw new UsageError(`import payers: ${issues ?? error.message}`);
      });
    process.stdout.write(`${JSON.stringify({ imported: "payers", ...result })}\n`);
  } finally {
    await storage.close();
  }
}
