import { readFileSync, statSync } from "node:fs";
import type BetterSqlite3 from "better-sqlite3";

/** Another process has the database open: the CLI prints the message and exits 75 (EX_TEMPFAIL: stop it, retry). */
export class DatabaseInUseError extends Error {
  override readonly name = "DatabaseInUseError";
}

/** `/proc/locks` writes a file as major:minor:inode in hexadecimal, decimal (glibc's split of st_dev). */
function lockId(file: string): string {
  const { dev, ino } = statSync(file);
  const major = Math.floor(dev / 256) % 4096;
  const minor = (dev % 256) + (Math.floor(dev / 1048576) % 4096) * 256;
  return `${major.toString(16).padStart(2, "0")}:${minor.toString(16).padStart(2, "0")}:${ino}`;
}

/**
 * The other processes holding a POSIX lock on the file (SQLite's locks, so every open connection in WAL mode), each
 * as "pid N (command line)". Linux only: elsewhere, or when /proc cannot be read, none are named.
 */
export function processesLocking(file: string): string[] {
  let locks: string;
  let id: string;
  try {
    locks = readFileSync("/proc/locks", "utf8");
    id = lockId(file);
  } catch {
    return [];
  }
  const pids = new Set<number>();
  for (const line of locks.split("\n")) {
    const match = /\s(-?\d+)\s+([0-9a-f]+:[0-9a-f]+:\d+)\s/.exec(line);
    if (match?.[2] === id && Number(match[1]) > 0 && Number(match[1]) !== process.pid) pids.add(Number(match[1]));
  }
  return [...pids].sort((a, b) => a - b).map((pid) => `pid ${pid}${commandOf(pid)}`);
}

function commandOf(pid: number): string {
  try {
    const command = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ");
    return command ? ` (${command.length > 200 ? `${command.slice(0, 200)}…` : command})` : "";
  } catch {
    return "";
  }
}

/** One sentence naming the processes, for the error messages. */
export function inUseBy(file: string): string {
  const holders = processesLocking(file);
  return holders.length > 0 ? `open in ${holders.join(", ")}` : "open in another process";
}

/**
 * Opens a SQLite database for this process alone: SQLite's exclusive locking mode and an exclusive transaction,
 * without waiting, so any other connection (a server started any way, its worker processes, an embedding
 * application, a backup in progress) makes it fail at once. The lock is held until the handle is closed.
 */
export async function openDatabaseAlone(file: string, command: string): Promise<BetterSqlite3.Database> {
  const { default: Database } = await import("better-sqlite3");
  const db = new Database(file, { fileMustExist: true });
  try {
    db.pragma("busy_timeout = 0");
    db.pragma("locking_mode = EXCLUSIVE");
    db.exec("BEGIN EXCLUSIVE");
    db.exec("COMMIT");
    return db;
  } catch (error) {
    const busy = (error as { code?: string }).code === "SQLITE_BUSY";
    const message = busy ? `${command}: ${file} is ${inUseBy(file)}; stop it first, then run ${command} again` : "";
    db.close();
    if (busy) throw new DatabaseInUseError(message);
    throw error;
  }
}
