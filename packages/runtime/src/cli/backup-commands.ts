import { existsSync, renameSync, rmSync, statSync } from "node:fs";
import type BetterSqlite3 from "better-sqlite3";
import { dirname, join } from "node:path";
import { loadConfig, type RuntimeConfig } from "../config/config.js";
import { BACKUP_KEY_FILE, existingBackupKey, resolveBackupKey } from "../config/backup-key.js";
import { openStorage } from "../storage-from-url.js";
import { decryptFile, encryptFile, isAgeFile } from "./backup-encryption.js";
import { backupPrefix, pruneBackups, timestampedBackupName } from "./backup-names.js";
import { DatabaseInUseError, inUseBy, openDatabaseAlone } from "./database-in-use.js";
import { createOwnerOnlyFile, ensureOwnerOnlyFolder } from "./owner-only-file.js";
import { removeAbandonedScratch, scratchBeside } from "./scratch-copies.js";
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
    ? "mariadb-dump (mysqldump on MySQL) --single-transaction --routines <database> > backup.sql (restore: mariadb <database> < backup.sql)"
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
 * Copies the database with SQLite's backup API and returns its page count. better-sqlite3 reports a copy that never
 * started, because another connection held a lock past the busy timeout (SQLITE_BUSY on the first step), as a
 * finished copy of 0 pages; every database has at least one page, so 0 is that lock, thrown as SQLITE_BUSY.
 */
async function copyPages(db: BetterSqlite3.Database, file: string): Promise<number> {
  const { totalPages } = await db.backup(file);
  if (totalPages === 0) throw Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" });
  return totalPages;
}

/** The files SQLite may leave beside a database it opened. */
const withCompanions = (file: string) => [file, `${file}-wal`, `${file}-shm`, `${file}-journal`];

function parseKeep(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 100_000)
    throw new UsageError(`backup: --keep must be a whole number of backups from 1 to 100000 (got '${raw}')`);
  return Number(raw);
}

export interface BackupOptions {
  /** Encrypt for the backup key (age). */
  encrypt?: boolean;
  /** With a folder target: how many backups of this database to keep there (the newest). */
  keep?: string | undefined;
}

/**
 * `openpractice backup <file | folder/> [--encrypt] [--keep N]`: a consistent copy of the SQLite database while the
 * server runs (SQLite's online backup API, page by page; writers are not stopped), owner-only (0600), written to
 * `<file>.partial` and renamed when whole. Into a folder it names the copy by the time; `--keep N` then removes the
 * older copies of this database there. `--encrypt` writes an age file for the backup key. Prints the copy's size,
 * the key files to keep with it and what was removed.
 */
export async function backupCommand(target: string | undefined, options: BackupOptions = {}): Promise<void> {
  if (!target)
    throw new UsageError("backup needs a target file or folder: openpractice backup <file | folder/> [--keep N]");
  const keep = parseKeep(options.keep);
  const config = loadConfig();
  const source = sqliteFile(config, "backup");
  if (!existsSync(source)) throw new UsageError(`backup: ${source} does not exist (DATABASE_URL)`);
  const intoFolder = target.endsWith("/") || statSync(target, { throwIfNoEntry: false })?.isDirectory() === true;
  if (keep !== undefined && !intoFolder)
    throw new UsageError(
      `backup: --keep needs a folder to write into (openpractice backup --keep ${keep} /var/backups/openpractice/), so that only the copies it named are removed`,
    );
  const encrypt = options.encrypt === true;
  const prefix = backupPrefix(source);
  if (intoFolder) ensureOwnerOnlyFolder(target);
  const file = intoFolder ? join(target, timestampedBackupName(prefix, new Date(), encrypt)) : target;
  if (existsSync(file)) throw new UsageError(`backup: ${file} exists; choose a new file`);
  removeAbandonedScratch(source);
  const key = encrypt ? await resolveBackupKey(config.backupKey, config.dataDir) : undefined;
  const partial = `${file}.partial`;
  // An encrypted backup is copied in plain beside the database first (as private as the database), then encrypted.
  const plain = key ? scratchBeside(source, "backup") : partial;
  const started = Date.now();
  let pages: number;
  try {
    createOwnerOnlyFile(partial);
    if (key) createOwnerOnlyFile(plain);
    const db = await sqliteDatabase(source, { readonly: true, fileMustExist: true });
    try {
      pages = await copyPages(db, plain);
    } catch (error) {
      // Only an exclusive lock held past the busy timeout (a restore under way) stops the online backup.
      if ((error as { code?: string }).code !== "SQLITE_BUSY") throw error;
      throw new DatabaseInUseError(
        `backup: ${source} is locked by another process (${inUseBy(source)}), a restore perhaps; run backup again once it is done`,
      );
    } finally {
      db.close();
    }
    if (key) await encryptFile(plain, partial, key.recipient);
    renameSync(partial, file);
  } catch (error) {
    for (const f of withCompanions(partial)) rmSync(f, { force: true });
    throw error;
  } finally {
    if (key) for (const f of withCompanions(plain)) rmSync(f, { force: true });
  }
  const removed = keep === undefined ? [] : pruneBackups(target, prefix, keep);
  process.stdout.write(
    `${JSON.stringify({
      backup: file,
      database: source,
      encrypted: encrypt,
      pages,
      bytes: statSync(file).size,
      seconds: Math.round((Date.now() - started) / 100) / 10,
      keep_with_it: keyFilesIn(config.dataDir),
      ...(key && { backup_key: key.source, backup_key_created: key.created }),
      removed,
    })}\n`,
  );
}

/** The plain SQLite file to restore from: the backup itself, or its decryption beside the database. */
async function plainBackup(source: string, target: string, config: RuntimeConfig): Promise<string | undefined> {
  if (!isAgeFile(source)) return undefined;
  const key = await existingBackupKey(config.backupKey, config.dataDir);
  if (!key)
    throw new UsageError(
      `restore: ${source} is encrypted (age) and there is no backup key: set OPENPRACTICE_BACKUP_KEY or put the key file at ${join(config.dataDir, BACKUP_KEY_FILE)}`,
    );
  ensureOwnerOnlyFolder(dirname(target));
  removeAbandonedScratch(target);
  const plain = scratchBeside(target, "restoring");
  createOwnerOnlyFile(plain);
  try {
    await decryptFile(source, plain, key.identity);
  } catch (error) {
    rmSync(plain, { force: true });
    throw new UsageError(
      `restore: cannot decrypt ${source} with the backup key of ${key.source} (${(error as Error).message}); nothing was changed`,
    );
  }
  return plain;
}

/**
 * `openpractice restore <file>`: checks the backup (decrypted first when it is an age file; SQLite's integrity
 * check, OpenPractice's migration table), refuses while any process has the database open, keeps the current
 * database as `<database>.before-restore`, copies the backup over it with the backup API and applies pending
 * migrations, so a backup from an older version comes up to date. Every file it leaves is owner-only (0600).
 */
export async function restoreCommand(source: string | undefined): Promise<void> {
  if (!source) throw new UsageError("restore needs a backup file: openpractice restore <file>");
  const config = loadConfig();
  const target = sqliteFile(config, "restore");
  if (!existsSync(source)) throw new UsageError(`restore: ${source} does not exist`);
  const decrypted = await plainBackup(source, target, config);
  try {
    const backup = await sqliteDatabase(decrypted ?? source, { readonly: true, fileMustExist: true });
    try {
      const check = backup.pragma("integrity_check", { simple: true });
      if (check !== "ok") throw new UsageError(`restore: ${source} fails SQLite's integrity check (${String(check)})`);
      const migrations = backup
        .prepare("select count(*) as n from sqlite_master where type = 'table' and name = 'kysely_migration'")
        .get() as { n: number };
      if (migrations.n === 0)
        throw new UsageError(`restore: ${source} is not an OpenPractice database (no migration table)`);
      const kept = existsSync(target) ? await keepCurrent(target) : null;
      if (!kept) {
        ensureOwnerOnlyFolder(dirname(target));
        createOwnerOnlyFile(target);
      }
      let pages: number;
      try {
        // The database is in rollback-journal mode now (keepCurrent): the copy holds SQLite's exclusive lock on it
        // from its first page to its commit, so a server started meanwhile waits, then reads the restored data.
        pages = await copyPages(backup, target);
      } catch (error) {
        if ((error as { code?: string }).code !== "SQLITE_BUSY") throw error;
        throw new DatabaseInUseError(
          `restore: ${target} was opened by another process as the restore began (${inUseBy(target)}); the database is unchanged: stop it, then run restore again`,
        );
      }
      const storage = await openStorage(config.databaseUrl);
      await storage.close();
      process.stdout.write(
        `${JSON.stringify({ restored: target, from: source, decrypted: decrypted !== undefined, pages, previous: kept, migrated: true })}\n`,
      );
    } finally {
      backup.close();
    }
  } finally {
    if (decrypted) for (const f of withCompanions(decrypted)) rmSync(f, { force: true });
  }
}

/**
 * With the current database to itself (refused while any other process has it open): copies it to
 * `<database>.before-restore` (owner-only) and leaves it in rollback-journal mode, its WAL folded in and removed, so
 * that the restore's copy takes SQLite's exclusive file lock instead of sharing the database with a reader.
 */
async function keepCurrent(target: string): Promise<string> {
  const current = await openDatabaseAlone(target, "restore");
  try {
    const kept = `${target}.before-restore`;
    createOwnerOnlyFile(kept);
    await copyPages(current, kept);
    const mode = current.pragma("journal_mode = DELETE", { simple: true });
    if (mode !== "delete") throw new Error(`restore: could not leave WAL mode on ${target} (journal_mode ${mode})`);
    return kept;
  } finally {
    current.close();
  }
}
