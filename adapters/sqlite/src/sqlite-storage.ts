import { chmodSync, closeSync, mkdirSync, openSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { KyselyStorage, type Database } from "@openpractice/kysely";
import BetterSqlite3 from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import { sqliteProfile } from "./sqlite-profile.js";
import { withStatementCache } from "./statement-cache.js";
import { WalCheckpointer, type WalCheckpointOptions } from "./wal-checkpointer.js";

export interface SqliteStorageOptions {
  /** Path of the database file (its folder is created owner-only, 0700), or ":memory:". Ignored when `database` is given. */
  filename?: string;
  /** An already-open better-sqlite3 handle; the caller keeps ownership and closes it. */
  database?: BetterSqlite3.Database;
  /** Apply pending migrations before returning (default true). */
  migrate?: boolean;
  /**
   * WAL checkpoints in a worker thread instead of inside a commit on the event loop (WalCheckpointer); default on
   * for a database file, `false` leaves them to SQLite's automatic checkpoint.
   */
  walCheckpoint?: WalCheckpointOptions | false;
}

/**
 * The embedded default store. WAL lets readers run beside the single writer;
 * busy_timeout makes a second process wait for the write lock instead of failing.
 */
export async function createSqliteStorage(options: SqliteStorageOptions): Promise<KyselyStorage> {
  const owns = !options.database;
  let database = options.database;
  if (!database) {
    const filename = options.filename ?? ":memory:";
    if (filename !== ":memory:") ownerOnlyDatabaseFiles(filename);
    database = new BetterSqlite3(filename);
  }
  database.pragma("journal_mode = WAL");
  database.pragma("busy_timeout = 5000");
  database.pragma("foreign_keys = ON");
  database.pragma("synchronous = NORMAL");
  const checkpointer =
    options.walCheckpoint === false || database.memory
      ? undefined
      : new WalCheckpointer(database, options.walCheckpoint);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(database) }) });
  const storage = new KyselyStorage({
    db,
    profile: sqliteProfile,
    ownsConnection: owns,
    closing: checkpointer && (() => checkpointer.close()),
  });
  if (options.migrate !== false)
    await storage.migrate().catch(async (error: unknown) => {
      // No store for the caller to close: end the checkpoint thread (and the connection, when it is ours) here.
      await storage.close();
      throw error;
    });
  return storage;
}

/**
 * The database holds patient records: its folder is created 0700, and the file and its `-wal` and `-shm` companions
 * are 0600 whatever the umask, new or (from an older release) existing. SQLite gives the companions it creates the
 * database file's mode, so a fresh database is owner-only from its first byte.
 */
function ownerOnlyDatabaseFiles(filename: string): void {
  const folder = dirname(filename);
  if (mkdirSync(folder, { recursive: true, mode: 0o700 }) !== undefined) chmodSync(folder, 0o700);
  closeSync(openSync(filename, "a", 0o600));
  for (const file of [filename, `${filename}-wal`, `${filename}-shm`]) {
    const mode = statSync(file, { throwIfNoEntry: false })?.mode;
    if (mode !== undefined && (mode & 0o777) !== 0o600) chmodSync(file, 0o600);
  }
}

/**
 * The file path of a sqlite URL: `sqlite:./data/x.db` and `sqlite://data/x.db`
 * are relative, `sqlite:/srv/x.db` and `sqlite:///srv/x.db` absolute.
 */
export function sqliteFilenameFromUrl(url: string): string {
  if (!url.startsWith("sqlite:")) throw new Error("not a sqlite: URL");
  const rest = url.slice("sqlite:".length);
  return rest.startsWith("//") ? rest.slice(2) : rest;
}
