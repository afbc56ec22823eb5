import { createSqliteStorage, sqliteFilenameFromUrl } from "@openpractice/sqlite";
import type { Storage } from "@openpractice/core";

/** Opens the store named by DATABASE_URL and applies pending migrations. */
export async function openStorage(databaseUrl: string): Promise<Storage> {
  if (databaseUrl.startsWith("sqlite:")) return createSqliteStorage({ filename: sqliteFilenameFromUrl(databaseUrl) });
  throw new Error(`Unsupported DATABASE_URL scheme: ${databaseUrl.split(":")[0]}`);
}
