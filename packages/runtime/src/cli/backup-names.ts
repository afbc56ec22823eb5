import { lstatSync, readdirSync, rmSync } from "node:fs";
import { basename, join } from "node:path";

/** The name's stem: the database file's name without its extension (`openpractice.db` → `openpractice`). */
export const backupPrefix = (database: string) => basename(database).replace(/\.(db|sqlite3?)$/i, "");

/**
 * The name of a backup `backup` writes into a folder: `<prefix>-<UTC time to the millisecond>.db`, `.db.age` when
 * encrypted (openpractice-20261128T023000.123Z.db). The time sorts as text, so the newest is last by name whatever
 * the files' modification times say (a copy to another disk resets them).
 */
export function timestampedBackupName(prefix: string, at: Date, encrypted: boolean): string {
  return `${prefix}-${at.toISOString().replace(/[-:]/g, "")}.db${encrypted ? ".age" : ""}`;
}

export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Backups of this prefix in the folder, plain or encrypted, newest first; other files (and links) are never listed. */
export function backupsIn(folder: string, prefix: string): string[] {
  const pattern = new RegExp(`^${escapeRegExp(prefix)}-\\d{8}T\\d{6}\\.\\d{3}Z\\.db(\\.age)?$`);
  return readdirSync(folder)
    .filter((name) => pattern.test(name) && lstatSync(join(folder, name)).isFile())
    .sort((a, b) => timeOf(b).localeCompare(timeOf(a)));
}

/** The time part of a backup's name (a plain and an encrypted one compare by time alone). */
const timeOf = (name: string) => name.replace(/\.db(\.age)?$/, "").slice(-20);

/** Removes all but the `keep` newest backups of this prefix in the folder; returns the removed files' paths. */
export function pruneBackups(folder: string, prefix: string, keep: number): string[] {
  const removed = backupsIn(folder, prefix)
    .slice(keep)
    .map((name) => join(folder, name));
  for (const file of removed) rmSync(file);
  return removed;
}
