import { statSync } from "node:fs";
import { Worker } from "node:worker_threads";
import type BetterSqlite3 from "better-sqlite3";
import type { CheckpointReply, CheckpointWorkerData } from "./wal-checkpoint-worker.js";

export interface WalCheckpointOptions {
  /** How often the thread copies the log into the database; default 1,000 ms. */
  intervalMs?: number | undefined;
  /** The thread starts once the log file reaches this size; default 1 MiB (a small database never starts it). */
  startBytes?: number | undefined;
  /**
   * The serving connection's own automatic checkpoint, in pages, kept as a backstop should the thread fall behind;
   * default 10,000 (about 40 MB; SQLite's default is 1,000).
   */
  backstopPages?: number | undefined;
}

/** SQLite's own default for wal_autocheckpoint, restored when the thread cannot run. */
const SQLITE_DEFAULT_AUTOCHECKPOINT = 1_000;
/** Checkpoints failing in a row before the serving connection takes them back. */
const FAILURES_BEFORE_FALLBACK = 5;

/** The absolute path SQLite opened for the main database (the handle's name may be relative to another directory). */
function mainDatabaseFile(database: BetterSqlite3.Database): string {
  const list = database.pragma("database_list") as { name: string; file: string }[];
  return list.find((d) => d.name === "main")?.file || database.name;
}

/** What the checkpointer has done, for tests and diagnostics. */
export interface WalCheckpointStats {
  threadStarted: boolean;
  checkpoints: number;
  /** The last checkpoint's frames in the log, and how many of them are in the database now (SQLite's numbers). */
  logFrames: number;
  checkpointedFrames: number;
  failures: number;
  lastError: string | undefined;
}

/**
 * The worker's file. Built, it sits beside this module in dist/. Run from source (the tests' "source" condition),
 * this module is a .ts file under src/ and the worker is taken from the package's build: a worker thread loads plain
 * JavaScript, not TypeScript through the test runner.
 */
function workerFile(): URL {
  const here = import.meta.url;
  return here.endsWith(".ts")
    ? new URL("../dist/wal-checkpoint-worker.js", here)
    : new URL("./wal-checkpoint-worker.js", here);
}

/**
 * Moves SQLite's WAL checkpoints off the event loop. By default the connection that commits past 1,000 log pages
 * copies the log into the database and syncs it inside that commit: in the clinic day, about one commit in ninety
 * took 5 to 23 ms instead of 0.05, with every request behind it waiting (docs/performance.md). Here the serving
 * connection's automatic checkpoint is raised to a backstop, and a worker thread with its own connection runs a
 * PASSIVE checkpoint every `intervalMs` once the log has grown past `startBytes`. Commits stay durable as before
 * (synchronous = NORMAL: the log is synced at each checkpoint, whichever thread runs it). If the thread cannot start
 * or fails, the connection's automatic checkpoint goes back to SQLite's default. The timer and the thread never keep
 * the process alive.
 */
export class WalCheckpointer {
  private readonly timer: NodeJS.Timeout;
  private worker: Worker | undefined;
  private inFlight = false;
  private closed = false;
  private failuresInARow = 0;
  private readonly counts: WalCheckpointStats = {
    threadStarted: false,
    checkpoints: 0,
    logFrames: 0,
    checkpointedFrames: 0,
    failures: 0,
    lastError: undefined,
  };
  private readonly startBytes: number;
  /** The database file as SQLite opened it, absolute: the host may change its working directory later. */
  private readonly filename: string;
  /** The serving connection's setting before this took it over, given back at close(). */
  private readonly previousAutocheckpoint: number;

  constructor(
    private readonly database: BetterSqlite3.Database,
    options: WalCheckpointOptions = {},
  ) {
    const intervalMs = options.intervalMs ?? 1_000;
    this.startBytes = options.startBytes ?? 1024 * 1024;
    this.filename = mainDatabaseFile(database);
    this.previousAutocheckpoint = database.pragma("wal_autocheckpoint", { simple: true }) as number;
    database.pragma(`wal_autocheckpoint = ${Math.trunc(options.backstopPages ?? 10_000)}`);
    this.timer = setInterval(() => this.tick(), intervalMs);
    this.timer.unref();
  }

  stats(): WalCheckpointStats {
    return { ...this.counts };
  }

  private tick(): void {
    if (this.inFlight || this.closed) return;
    // A handle its owner closed without closing the store: the thread's connection must not outlive it (the last
    // connection to close is the one that empties and removes the log).
    if (!this.database.open) {
      void this.close();
      return;
    }
    if (!this.worker) {
      let size = 0;
      try {
        size = statSync(`${this.filename}-wal`, { throwIfNoEntry: false })?.size ?? 0;
      } catch {
        return; // unreadable for now: the backstop still checkpoints, and the next tick looks again
      }
      if (size < this.startBytes) return;
      this.worker = this.startThread();
      if (!this.worker) return;
    }
    this.inFlight = true;
    this.worker.postMessage("checkpoint");
  }

  private startThread(): Worker | undefined {
    let worker: Worker;
    try {
      // No inherited Node flags: a host's (e.g. --input-type for a script given with -e) may not apply to a file.
      worker = new Worker(workerFile(), {
        workerData: { filename: this.filename } satisfies CheckpointWorkerData,
        execArgv: [],
      });
    } catch (error) {
      this.fallBack((error as Error).message);
      return undefined;
    }
    this.counts.threadStarted = true;
    worker.on("message", (reply: CheckpointReply) => {
      this.inFlight = false;
      if (reply.ok) {
        this.failuresInARow = 0;
        this.counts.checkpoints++;
        this.counts.logFrames = reply.log;
        this.counts.checkpointedFrames = reply.checkpointed;
        return;
      }
      // Another process's checkpoint or a passing lock fails one; failing every time, the thread is of no use.
      if (++this.failuresInARow >= FAILURES_BEFORE_FALLBACK) {
        this.fallBack(reply.message);
        worker.postMessage("close");
        return;
      }
      this.counts.failures++;
      this.counts.lastError = reply.message;
    });
    worker.on("error", (error) => {
      if (!this.closed) this.fallBack(error.message);
    });
    worker.on("exit", (code) => {
      if (!this.closed) this.fallBack(`the checkpoint thread exited with code ${code}`);
    });
    // After the listeners: adding one to a message port refs it again.
    worker.unref();
    return worker;
  }

  /** The thread is gone: the serving connection checkpoints by itself again, as SQLite does by default. */
  private fallBack(message: string): void {
    this.counts.failures++;
    this.counts.lastError = message;
    clearInterval(this.timer);
    this.closed = true;
    this.worker = undefined;
    if (this.database.open) this.database.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_AUTOCHECKPOINT}`);
  }

  /**
   * Stops the timer and the thread (its connection closed first) and gives the serving connection, still the
   * caller's, its own automatic checkpoint back.
   */
  async close(): Promise<void> {
    if (this.database.open) this.database.pragma(`wal_autocheckpoint = ${Math.trunc(this.previousAutocheckpoint)}`);
    this.closed = true;
    clearInterval(this.timer);
    const worker = this.worker;
    this.worker = undefined;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
    worker.postMessage("close");
    const timeout = setTimeout(() => void worker.terminate(), 5_000);
    await exited;
    clearTimeout(timeout);
  }
}
