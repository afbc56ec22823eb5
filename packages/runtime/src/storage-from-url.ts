import type { Storage } from "@openpractice/core";
import { createSqliteStorage, sqliteFilenameFromUrl } from "@openpractice/sqlite";

/**
 * Opens the store named by DATABASE_URL (sqlite:, postgres://, postgresql://, mysql://) and applies pending migrations.
 * The PostgreSQL and MySQL adapters load only when their URL is given: their drivers (pg, mysql2) cost
 * several hundred milliseconds of every start on the embedded default.
 */
export async function openStorage(databaseUrl: string, onIdleConnectionError?: (error: Error) => void): Promise<Storage> {
  if (databaseUrl.startsWith("sqlite:")) return createSqliteStorage({ filename: sqliteFilenameFromUrl(databaseUrl) });
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    const { createPostgresStorage } = await import("@openpractice/postgres");
    return createPostgresStorage({ url: databaseUrl, onIdleConnectionError });
  }
  if (databaseUrl.startsWith("mysql://")) {
    const { createMysqlStorage } = await import("@openpractice/mysql");
    return createMysqlStorage({ url: databaseUrl });
  }
  throw new Error(`Unsupported DATABASE_URL scheme: ${databaseUrl.split(":")[0]}`);
}
