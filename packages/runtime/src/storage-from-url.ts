import type { Storage } from "@openpractice/core";
import { createSqliteStorage, sqliteFilenameFromUrl } from "@openpractice/sqlite";

/**
 * The store named by DATABASE_URL cannot be opened for a reason the operator fixes in the environment (the server
 * is down or elsewhere, the login is refused, the SQLite folder cannot be written). Its message is one line that
 * names the engine and the address, never the password; the CLI prints it and exits 78 (EX_CONFIG).
 */
export class DatabaseUnavailableError extends Error {
  override readonly name = "DatabaseUnavailableError";
}

/**
 * Opens the store named by DATABASE_URL (sqlite:, postgres://, postgresql://, mysql://) and applies pending migrations.
 * The PostgreSQL and MySQL adapters load only when their URL is given: their drivers (pg, mysql2) cost
 * several hundred milliseconds of every start on the embedded default.
 */
export async function openStorage(databaseUrl: string, onIdleConnectionError?: (error: Error) => void): Promise<Storage> {
  try {
    if (databaseUrl.startsWith("sqlite:")) return await createSqliteStorage({ filename: sqliteFilenameFromUrl(databaseUrl) });
    if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
      const { createPostgresStorage } = await import("@openpractice/postgres");
      return await createPostgresStorage({ url: databaseUrl, onIdleConnectionError });
    }
    if (databaseUrl.startsWith("mysql://")) {
      const { createMysqlStorage } = await import("@openpractice/mysql");
      return await createMysqlStorage({ url: databaseUrl });
    }
  } catch (error) {
    throw explainOpenFailure(databaseUrl, error) ?? error;
  }
  throw new Error(`Unsupported DATABASE_URL scheme: ${databaseUrl.split(":")[0]}`);
}

/** Network failures: the server is not there (or not at this address). */
const UNREACHABLE = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ECONNRESET"]);
/** Refused logins and missing databases: PostgreSQL SQLSTATEs 28000, 28P01, 3D000; MySQL/MariaDB errors 1044, 1045, 1049. */
const LOGIN_REFUSED = new Set(["28000", "28P01", "3D000", "ER_DBACCESS_DENIED_ERROR", "ER_ACCESS_DENIED_ERROR", "ER_BAD_DB_ERROR"]);
/** The SQLite file or its folder cannot be created or opened. */
const SQLITE_UNOPENABLE = new Set(["EACCES", "EPERM", "ENOTDIR", "EEXIST", "EROFS", "ENOENT", "SQLITE_CANTOPEN", "SQLITE_READONLY", "SQLITE_PERM"]);

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
function explainOpenFailure(databaseUrl: string, error: unknown): DatabaseUnavailableError | undefined {
  const cause = rootCause(error);
  if (!cause) return undefined;
  if (databaseUrl.startsWith("sqlite:")) {
    if (!SQLITE_UNOPENABLE.has(cause.code)) return undefined;
    return new DatabaseUnavailableError(
      `cannot open the SQLite database ${sqliteFilenameFromUrl(databaseUrl)} (${cause.code}: ${cause.message}): check that its folder exists or can be created and that this user can write to it (DATABASE_URL, OPENPRACTICE_DATA_DIR)`,
    );
  }
  const mysql = databaseUrl.startsWith("mysql://");
  const engine = mysql ? "MySQL/MariaDB" : "PostgreSQL";
  let address = "";
  let user = "";
  try {
    const url = new URL(databaseUrl);
    address = `${url.hostname || "localhost"}:${url.port || (mysql ? 3306 : 5432)}`;
    user = decodeURIComponent(url.username);
  } catch {
    address = "the address in DATABASE_URL";
  }
  if (UNREACHABLE.has(cause.code)) {
    return new DatabaseUnavailableError(`cannot reach ${engine} at ${address} (${cause.message.replace(/ \S+:\d+$/, "") || cause.code}): check that the server runs and DATABASE_URL's host and port`);
  }
  if (LOGIN_REFUSED.has(cause.code)) {
    // The server's message names the user and database at most, never the password.
    return new DatabaseUnavailableError(`${engine} at ${address} refused ${user ? `user '${user}'` : "the login"} or the database (${cause.message}): check DATABASE_URL's user, password and database name`);
  }
  return undefined;
}
