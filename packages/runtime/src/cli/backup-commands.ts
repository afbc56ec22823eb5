import { existsSync, mkdirSync, renameSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { loadConfig, type RuntimeConfig } from "../config/config.js";
import { openStorage } from "../storage-from-url.js";
import { UsageError } from "./usage-error.js";

/** The key files of the data directory: without them a restored database's webhook keys and tokens are useless. */
const KEY_FILES = ["webhook-secret-key", "vapid-keys.json", "token-signing-keys.json", "jwt-secret"];

/** The SQLite file DATABASE_URL names; other engines have their own tools, named in the error. */
function sqliteFile(config: RuntimeConfig, command: string): string {
  const url = config.databaseUrl;
  if (url.startsWith("sqlite:")) {
    const rest = url.slice("sqlite:".length);
    const file = rest.startsWith("//") ? rest.slice(2) : rest;
    if (file === ":memory:" || file === "")
      throw new UsageError(`${command}: an in-memory database has nothing to back up`);
    return file;
  }
  const tool = url.startsWith("mysql:")
    ? "mysqldump --single-transaction --routines <database> > backup.sql (restore: mysql <database> < backup.sql)"
    : "pg_dump --format=custom --file=backup.dump <database> (restore: pg_restore --clean --dbname=<database> backup.dump)";
  throw new UsageError(
    `${command} copies the embedded SQLite database; for ${url.split(":")[0]} use the server's own tool: ${tool}. docs/deployment.md, "Backups"`,
  );
}

const keyFilesIn = (dataDir: string) => KEY_FILES.map((f) => join(dataDir, f)).filter((f) => existsSync(f));

async function sqliteDatabase(file: string, options: { readonly?: boolean; fileMustExist?: boolean } = {}) {
  const { default: Database } = await import("better-sqlite3");
  return new Database(file, options);
}

/**
 * `openpractice backup <file>`: a consistent copy of the SQLite database while the server runs (SQLite's online
 * backup API, page by page; writers are not stopped), written to `<file>.partial` and renamed when whole. Prints
 * the copy's size and the key files to keep with it.
 */
export async function backupCommand(target: string | undefined): Promise<void> {
  if (!target) throw new UsageError("backup needs a target file: openpractice backup <file>");
  const config = loadConfig();
  const source = sqliteFile(config, "backup");
  if (!existsSync(source)) throw new UsageError(`backup: ${source} does not exist (DATABASE_URL)`);
  if (existsSync(target)) throw new UsageError(`backup: ${target} exists; choose a new file`);
  const partial = `${target}.partial`;
  const started = Date.now();
  const db = await sqliteDatabase(source, { readonly: true, fileMustExist: true });
  try {
    const { totalPages } = await db.backup(partial);
    renameSync(partial, target);
    process.stdout.write(
      `${JSON.stringify({
        backup: target,
        database: source,
        pages: totalPages,
        bytes: statSync(target).size,
        seconds: Math.round((Date.now() - started) / 100) / 10,
        keep_with_it: keyFilesIn(config.dataDir),
      })}\n`,
    );
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  } finally {
    db.close();
  }
}

/**
 * `openpractice restore <file>`: checks the backup (SQLite integrity check, OpenPractice's migration table), copies
 * it over the configured database with the backup API (the old file is kept as `<database>.before-restore`), then
 * applies pending migrations, so a backup from an older version comes up to date. Stop the server first.
 */
export async function restoreCommand(source: string | undefined): Promise<void> {
  if (!source) throw new UsageError("restore needs a backup file: openpractice restore <file>");
  const config = loadConfig();
  const target = sqliteFile(config, "restore");
  if (!existsSync(source)) throw new UsageError(`restore: ${source} does not exist`);
  const backup = await sqliteDatabase(source, { readonly: true, fileMustExist: true });
  let pages: number;
  try {
    const check = backup.pragma("integrity_check", { simple: true });
    if (check !== "ok") throw new UsageError(`restore: ${source} fails SQLite's integrity check (${String(check)})`);
    const migrations = backup
      .prepare("select count(*) as n from sqlite_master where type = 'table' and name = 'kysely_migration'")
      .get() as { n: number };
    if (migrations.n === 0)
      throw new UsageError(`restore: ${source} is not an OpenPractice database (no migration table)`);
    let kept: string | null = null;
    if (existsSync(target)) {
      kept = `${target}.before-restore`;
      // The current database as it was, in one consistent file, before anything is replaced.
      const current = await sqliteDatabase(target, { fileMustExist: true });
      try {
        rmSync(kept, { force: true });
        await current.backup(kept);
      } finally {
        current.close();
      }
    }
    mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
    ({ totalPages: pages } = await backup.backup(target));
    const storage = await openStorage(config.databaseUrl);
    await storage.close();
    process.stdout.write(
      `${JSON.stringify({ restored: target, from: source, pages, previous: kept, migrated: true })}\n`,
    );
  } finally {
    backup.close();
  }
}
