import type { Storage, StorageEngine, StorageEngineOptions } from "@openpractice/core";
import { ENGINES, engineForUrl } from "./engines.js";

/**
 * The store named by DATABASE_URL cannot be opened for a reason the operator fixes in the environment (the server
 * is down or elsewhere, the login is refused, the SQLite folder cannot be written). Its message is one line that
 * names the engine and the address, never the password; the CLI prints it and exits 78 (EX_CONFIG).
 */
export class DatabaseUnavailableError extends Error {
  override readonly name = "DatabaseUnavailableError";
}

/**
 * Opens the store named by DATABASE_URL through the engine registry (engines.ts) and applies pending migrations.
 * Only the engine of the URL is loaded.
 */
export async function openStorage(
  databaseUrl: string,
  onIdleConnectionError?: (error: Error) => void,
  /** DATABASE_READ_URL's replicas and the read-your-writes window (the server only; CLI commands use the primary). */
  reads?: Pick<StorageEngineOptions, "readUrls" | "readYourWritesMs" | "onReplicaDown">,
): Promise<Storage> {
  const entry = engineForUrl(databaseUrl);
  if (!entry) {
    const known = ENGINES.flatMap((e) => e.schemes).join(", ");
    throw new Error(`Unsupported DATABASE_URL scheme: ${databaseUrl.split(":")[0]} (known: ${known})`);
  }
  const engine = await entry.load();
  try {
    return await engine.open(databaseUrl, { onIdleConnectionError, ...reads });
  } catch (error) {
    throw explainOpenFailure(engine, databaseUrl, error) ?? error;
  }
}

/** Network failures: the server is not there (or not at this address). */
const UNREACHABLE = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ECONNRESET",
]);
/** Refused logins and missing databases: PostgreSQL SQLSTATEs 28000, 28P01, 3D000; MySQL/MariaDB errors 1044, 1045, 1049. */
const LOGIN_REFUSED = new Set([
  "28000",
  "28P01",
  "3D000",
  "ER_DBACCESS_DENIED_ERROR",
  "ER_ACCESS_DENIED_ERROR",
  "ER_BAD_DB_ERROR",
]);
/** A file engine's database file or its folder cannot be created or opened. */
const FILE_UNOPENABLE = new Set([
  "EACCES",
  "EPERM",
  "ENOTDIR",
  "EEXIST",
  "EROFS",
  "ENOENT",
  "SQLITE_CANTOPEN",
  "SQLITE_READONLY",
  "SQLITE_PERM",
]);

/** The first error with a `code` in the chain (causes, an AggregateError's errors). */
function rootCause(error: unknown, depth = 0): { code: string; message: string } | undefined {
  if (!error || typeof error !== "object" || depth > 5) return undefined;
  const e = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown[] };
  if (typeof e.code === "string" && e.code !== "") return { code: e.code, message: String(e.message ?? "") };
  for (const inner of [e.cause, ...(Array.isArray(e.errors) ? e.errors : [])]) {
    const found = rootCause(inner, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** One line for an operator, or undefined when the failure is not about reaching the store. */
function explainOpenFailure(
  engine: StorageEngine,
  databaseUrl: string,
  error: unknown,
): DatabaseUnavailableError | undefined {
  const cause = rootCause(error);
  if (!cause) return undefined;
  const where = engine.describeLocation(databaseUrl);
  if (engine.kind === "file") {
    if (!FILE_UNOPENABLE.has(cause.code)) return undefined;
    return new DatabaseUnavailableError(
      `cannot open the ${engine.displayName} database ${where} (${cause.code}: ${cause.message}): check that its folder exists or can be created and that this user can write to it (DATABASE_URL, OPENPRACTICE_DATA_DIR)`,
    );
  }
  if (UNREACHABLE.has(cause.code)) {
    return new DatabaseUnavailableError(
      `cannot reach ${engine.displayName} at ${where} (${cause.message.replace(/ \S+:\d+$/, "") || cause.code}): check that the server runs and DATABASE_URL's host and port`,
    );
  }
  if (LOGIN_REFUSED.has(cause.code)) {
    let user = "";
    try {
      user = decodeURIComponent(new URL(databaseUrl).username);
    } catch {
      user = "";
    }
    // The server's message names the user and database at most, never the password.
    return new DatabaseUnavailableError(
      `${engine.displayName} at ${where} refused ${user ? `user '${user}'` : "the login"} or the database (${cause.message}): check DATABASE_URL's user, password and database name`,
    );
  }
  return undefined;
}
