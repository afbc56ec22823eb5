import type { Practice } from "@openpractice/core";
import cron from "node-cron";
import { JobRunner, type JobHandler } from "./job-runner.js";
import type { Logger } from "./logger.js";

export interface Workers {
  jobs: JobRunner;
  stop(): Promise<void>;
}

/**
 * Queues every runtime handles. `system.noop` does nothing: operators enqueue
 * it to see that workers are alive, and the multi-process test uses it to
 * prove each job completes exactly once. Later modules add their queues here.
 */
export function builtInJobHandlers(): Map<string, JobHandler> {
  return new Map([["system.noop", async () => undefined]]);
}

/**
 * The background work of one process: the job runner, and periodic
 * housekeeping that takes a store lock so one process of a deployment runs
 * each tick.
 */
export function startWorkers(practice: Practice, logger: Logger, options: { workerId: string; pollIntervalMs: number }): Workers {
  const jobs = new JobRunner({ storage: practice.storage, clock: practice.clock, ids: practice.ids, logger, workerId: options.workerId, handlers: builtInJobHandlers(), pollIntervalMs: options.pollIntervalMs });
  jobs.start();

  const purge = cron.schedule(
    "*/10 * * * *",
    async () => {
      const locks = practice.storage.repositories.locks;
      try {
        if (!(await locks.tryAcquire("purge-rate-limit-windows", options.workerId, practice.clock.now(), 5 * 60_000))) return;
        const removed = await practice.rateLimiter.purgeOldWindows();
        if (removed > 0) logger.debug({ removed }, "purged rate-limit windows");
      } catch (error) {
        logger.warn({ err: { message: (error as Error).message } }, "rate-limit purge failed");
      }
    },
    { name: "purge-rate-limit-windows" },
  );

  return {
    jobs,
    async stop() {
      await purge.stop();
      await jobs.stop();
    },
  };
}
