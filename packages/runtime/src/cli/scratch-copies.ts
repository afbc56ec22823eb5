import { readdirSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { escapeRegExp } from "./backup-names.js";

/**
 * Plain copies of the database that `backup --encrypt` and `restore` of an encrypted file keep beside it while they
 * work (`<database>.<role>-<pid>`, in the database's owner-only folder), and their removal once done.
 */
export const scratchBeside = (database: string, role: "backup" | "restoring") => `${database}.${role}-${process.pid}`;

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists under another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
};

/**
 * Removes the scratch copies a killed run left beside the database (each as large as the database): those whose
 * process is gone. A run still going keeps its own.
 */
export function removeAbandonedScratch(database: string): string[] {
  const pattern = new RegExp(`^${escapeRegExp(basename(database))}\\.(backup|restoring)-(\\d+)(-wal|-shm|-journal)?$`);
  const removed: string[] = [];
  for (const name of readdirSync(dirname(database))) {
    const match = pattern.exec(name);
    if (!match || alive(Number(match[2]))) continue;
    rmSync(join(dirname(database), name), { force: true });
    removed.push(join(dirname(database), name));
  }
  return removed;
}
