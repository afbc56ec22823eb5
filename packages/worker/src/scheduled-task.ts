import type { Clock, LockStore } from "@openpractice/core";
import cron from "node-cron";
import { holdingLock } from "./lock-lease.js";
import type { WorkerLogger } from "./logger.js";

/**
 * Periodic work of a deployment, run by one process at a time: each tick takes
 * the task's store lock (a short lease renewed while the tick runs) and skips
 * the tick when another process holds it. Ticks never overlap in a process.
 */
export interface ScheduledTask {
  /** The store lock's name; also the task's name in logs. */
  name: string;
  /**
   * When it runs: every this many milliseconds after the previous tick ended
   * (polling work such as the webhook fan-out), or a cron expression
   * (node-cron, e.g. every 10 minutes) for housekeeping.
   */
  schedule: { everyMs: number } | { cron: string };
  /** The lock's lease; a process that dies frees it within this long. */
  lockTtlMs: number;
  /** One tick; `held()` turns false when the lease lapsed mid-tick (stop at the next step). */
  run(held: () => boolean): Promise<void>;
  /**
   * Keep the lock between ticks (the same process stays the holder, released
   * on stop): for work that should stay with one process, like the fan-out.
   * Otherwise the lock lapses on its own after the tick.
   */
  keepLock?: boolean;
}

export interface RunningTask {
  stop(): Promise<void>;
}

/** Starts a task; `stop` waits for a tick in flight and releases the lock. */
export function startScheduledTask(
  task: ScheduledTask,
  o: { locks: LockStore; clock: Clock; holder: string; logger: WorkerLogger },
): RunningTask {
  let stopped = false;
  let inFlight: Promise<void> | undefined;
  const lease = { name: task.name, holder: o.holder, ttlMs: task.lockTtlMs };
  const tick = async () => {
    try {
      await holdingLock(o.locks, o.clock, lease, async (held) => {
        if (!stopped) await task.run(() => held() && !stopped);
      });
    } catch (error) {
      o.logger.warn({ task: task.name, err: { message: (error as Error).message } }, "scheduled task failed");
    }
  };
  const once = () => (inFlight ??= tick().finally(() => (inFlight = undefined)));

  let cancel: () => Promise<void>;
  if ("everyMs" in task.schedule) {
    const everyMs = Math.max(1, task.schedule.everyMs);
    let timer: NodeJS.Timeout | undefined;
    const loop = async () => {
      await once();
      if (!stopped) timer = setTimeout(loop, everyMs);
    };
    timer = setTimeout(loop, 0);
    cancel = async () => clearTimeout(timer);
  } else {
    const job = cron.schedule(task.schedule.cron, () => void once(), { name: task.name });
    cancel = async () => void (await job.stop());
  }
  return {
    async stop() {
      stopped = true;
      await cancel();
      await inFlight;
      if (task.keepLock) {
        await o.locks
          .release(task.name, o.holder)
          .catch((error: Error) =>
            o.logger.warn(
              { task: task.name, err: { message: error.message } },
              "could not release the task's lock; it lapses on its own",
            ),
          );
      }
    },
  };
}
