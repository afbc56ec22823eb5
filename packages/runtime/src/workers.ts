import type { Practice } from "@openpractice/core";
import cron from "node-cron";
import type { Logger } from "./logger.js";

export interface Workers {
  stop(): Promise<void>;
}

/** Periodic housekeeping: drops rate-limit counters of windows that ended over an hour ago. */
export function startWorkers(practice: Practice, logger: Logger): Workers {
  const purge = cron.schedule("*/10 * * * *", async () => {
    try {
      const removed = await practice.rateLimiter.purgeOldWindows();
      if (removed > 0) logger.debug({ removed }, "purged rate-limit windows");
    } catch (error) {
      logger.warn({ err: { message: (error as Error).message } }, "rate-limit purge failed");
    }
  }, { name: "purge-rate-limit-windows" });
  return {
    async stop() {
      await purge.stop();
    },
  };
}
