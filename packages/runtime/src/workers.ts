import { NOTIFICATION_DELIVERY_QUEUE, SOAP_SUMMARY_QUEUE, summaryFailureReason, WEBHOOK_DELIVERY_QUEUE, type DeliveryForAttempt, type Practice } from "@openpractice/core";
import DataLoader from "dataloader";
import { v1SummaryPath } from "@openpractice/http";
import cron from "node-cron";
import { DEFAULT_LEASE_MS, JobRunner, PermanentJobFailure, type JobHandler } from "./job-runner.js";
import { holdingLock } from "./lock-lease.js";
import { WebhookAttemptBatcher } from "./webhook-attempt-batcher.js";
import type { Logger } from "./logger.js";
import { DEFAULT_PUSH_RETRY, pushDeliveryHandler, type PushRetryPolicy } from "./push-delivery-job.js";

export interface Workers {
  jobs: JobRunner;
  stop(): Promise<void>;
}

/**
 * Queues every runtime handles. `system.noop` does nothing: operators enqueue
 * it to see that workers are alive, and the multi-process test uses it to
 * prove each job completes exactly once. Later modules add their queues here.
 */
export function builtInJobHandlers(practice?: Practice, options: { workerId?: string; pushRetry?: PushRetryPolicy } = {}): Map<string, JobHandler> {
  const { workerId = "worker", pushRetry = DEFAULT_PUSH_RETRY } = options;
  const handlers = new Map<string, JobHandler>([["system.noop", async () => undefined]]);
  if (practice) {
    // The jobs a claim starts together read their deliveries in one statement (DataLoader batches the loads of a tick);
    // no cache, so every attempt reads the delivery as it is now.
    const deliveries = new DataLoader<number, DeliveryForAttempt | undefined>(
      async (ids) => {
        const found = await practice.webhookDeliveries.findForAttempts([...ids]);
        return ids.map((id) => found.get(id));
      },
      { cache: false, maxBatchSize: 200 },
    );
    // The attempt and the job's completion commit together, grouped with the attempts that finished alongside.
    const attempts = new WebhookAttemptBatcher(practice, workerId);
    handlers.set(WEBHOOK_DELIVERY_QUEUE, async (job) => {
      const outcome = await practice.webhookDeliveries.sendAttempt(Number((job.payload as { deliveryId: number }).deliveryId), (id) => deliveries.load(id));
      if (outcome === "skipped") return undefined;
      await attempts.record(outcome, job);
      return "completed";
    });
    // Renders a completed note's PDF summaries, linked where the v1 API serves them. A render that throws fails the
    // summary and the job at once (it would throw every time); a store that fails is retried with the runner's
    // backoff, and the summary is FAILED with the last reason when the attempts run out.
    handlers.set(SOAP_SUMMARY_QUEUE, async (job, context) => {
      const { organisationId, contextId } = job.payload as { organisationId: number; contextId: string };
      let done;
      try {
        done = await practice.soapDocuments.render(Number(organisationId), String(contextId), v1SummaryPath);
      } catch (error) {
        if (context.finalAttempt) await practice.soapDocuments.markFailed(Number(organisationId), String(contextId), `gave up after ${job.attempts} attempts: ${summaryFailureReason(error)}`);
        throw error;
      }
      if (done.outcome === "failed") throw new PermanentJobFailure(done.reason);
    });
    handlers.set(NOTIFICATION_DELIVERY_QUEUE, pushDeliveryHandler(practice, pushRetry));
  }
  return handlers;
}

/** The store lock that makes one process of a deployment the fan-out's. */
const FAN_OUT_LOCK = "webhooks-fan-out";

/**
 * Moves outbox events into webhook deliveries, one process of a deployment at a
 * time (a store lock), as often as the job runner polls. The lock is a short
 * lease renewed while this process fans out, and released on a graceful stop,
 * so a process started after a crash takes over within one lease.
 */
function startFanOut(practice: Practice, logger: Logger, o: { workerId: string; pollIntervalMs: number; leaseMs: number }): { stop(): Promise<void> } {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  const locks = practice.storage.repositories.locks;
  const lease = { name: FAN_OUT_LOCK, holder: o.workerId, ttlMs: o.leaseMs };
  const tick = async () => {
    try {
      // Drain what is pending, a batch at a time, while the lock is still ours.
      await holdingLock(locks, practice.clock, lease, async (held) => {
        while (!stopped && held() && (await practice.webhookDeliveries.fanOut(200)) === 200);
      });
    } catch (error) {
      logger.warn({ err: { message: (error as Error).message } }, "webhook fan-out failed");
    }
  };
  const loop = async () => {
    if (stopped) return;
    running = tick();
    await running;
    if (!stopped) timer = setTimeout(loop, o.pollIntervalMs);
  };
  timer = setTimeout(loop, 0);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      await locks.release(FAN_OUT_LOCK, o.workerId).catch((error: Error) => logger.warn({ err: { message: error.message } }, "could not release the fan-out lock; it lapses on its own"));
    },
  };
}

/**
 * The background work of one process: the job runner, and periodic
 * housekeeping that takes a store lock so one process of a deployment runs
 * each tick.
 */
export function startWorkers(practice: Practice, logger: Logger, options: { workerId: string; pollIntervalMs: number; leaseMs?: number; pushRetry?: PushRetryPolicy }): Workers {
  const handlers = builtInJobHandlers(practice, options);
  const jobs = new JobRunner({ storage: practice.storage, clock: practice.clock, ids: practice.ids, logger, workerId: options.workerId, handlers, pollIntervalMs: options.pollIntervalMs, leaseMs: options.leaseMs });
  jobs.start();
  const fanOut = startFanOut(practice, logger, { ...options, leaseMs: options.leaseMs ?? DEFAULT_LEASE_MS });

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
      await fanOut.stop();
      await jobs.stop();
    },
  };
}
