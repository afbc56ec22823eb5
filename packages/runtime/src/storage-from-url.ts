import type { Storage } from "@openpractice/core";
import { createMysqlStorage } from "@openpractice/mysql";
import { createPostgresStorage } from "@openpractice/postgres";
import { createSqliteStorage, sqliteFilenameFromUrl } from "@openpractice/sqlite";

/** Opens the store named by DATABASE_URL (sqlite:, postgres://, postgresql://, mysql://) and applies pending migrations. */
export async function openStorage(databaseUrl: string, onIdleConnectionError?: (error: Error) => void): Promise<Storage> {
  if (databaseUrl.startsWith("sqlite:")) return createSqliteStorage({ filename: sqliteFilenameFromUrl(databaseUrl) });
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) return createPostgresStorage({ url: databaseUrl, onIdleConnectionError });
  if (databaseUrl.startsWith("mysql://")) return createMysqlStorage({ url: databaseUrl });
  throw new Error(`Unsupported DATABASE_URL scheme: ${databaseUrl.split(":")[0]}`);
}
