import { parentPort, workerData } from "node:worker_threads";
import BetterSqlite3 from "better-sqlite3";

/** What the thread answers for each checkpoint (SQLite's three numbers, or the error's message). */
export type CheckpointReply =
  | { ok: true; busy: number; log: number; checkpointed: number }
  | { ok: false; message: string };

export interface CheckpointWorkerData {
  filename: string;
}

/**
 * The thread of {@link WalCheckpointer}: its own connection to the database file, which copies the write-ahead log
 * into the database on request (PASSIVE: it never waits for, or blocks, the serving connection's readers and writer).
 * The copy and its fsync are what used to stall a commit on the event loop.
 */
const { filename } = workerData as CheckpointWorkerData;
const database = new BetterSqlite3(filename, { fileMustExist: true });
database.pragma("busy_timeout = 5000");
const port = parentPort as NonNullable<typeof parentPort>;
port.on("message", (message: "checkpoint" | "close") => {
  if (message === "close") {
    database.close();
    port.close();
    return;
  }
  let reply: CheckpointReply;
  try {
    const [row] = database.pragma("wal_checkpoint(PASSIVE)") as { busy: number; log: number; checkpointed: number }[];
    reply = { ok: true, busy: row?.busy ?? 0, log: row?.log ?? 0, checkpointed: row?.checkpointed ?? 0 };
  } catch (error) {
    reply = { ok: false, message: (error as Error).message };
  }
  port.postMessage(reply);
});
