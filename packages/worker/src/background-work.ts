import { hostname } from "node:os";
import { tell, type WorkObserver } from "./work-observer.js";
import { randomBytes } from "node:crypto";
import {
  NOTIFICATION_DELIVERY_QUEUE,
  WEBHOOK_DELIVERY_QUEUE,
  type DeliveryForAttempt,
  type OutboundAdapters,
  type Practice,
} from "@openpractice/core";
import { PdfLibSummaryRenderer, ThreadedSummaryRenderer } from "@openpractice/pdf-lib";
import DataLoader from "dataloader";
import { DEFAULT_LEASE_MS, JobRunner, type JobHandler } from "./job-runner.js";
import { stderrWarnings, type WorkerLogger } from "./logger.js";
import type { OutboundPolicy } from "./outbound-http.js";
import { DEFAULT_PUSH_RETRY, pushDeliveryHandler, type PushRetryPolicy } from "./push-delivery-job.js";
import { createPushTransport } from "./push-transport.js";
import { startScheduledTask, type RunningTask, type ScheduledTask } from "./scheduled-task.js";
import { WebhookAttemptBatcher } from "./webhook-attempt-batcher.js";
import { createWebhookTransport } from "./webhook-transport.js";

export interface BackgroundWorkOptions {
  /** Where failures are reported; default: warnings and errors as JSON lines on stderr. */
  logger?: WorkerLogger | undefined;
  /**
   * Who holds job leases and task locks; unique per process (default
   * hostname:pid:random). Two processes with one id would count as one holder.
   */
  workerId?: string | undefined;
  /** How often the job queue and the outbox are polled; default 1,000 ms. */
  pollIntervalMs?: number | undefined;
  /** Lease of claimed jobs and task locks, renewed every third of it; default 3,000 ms. */
  leaseMs?: number | undefined;
  /** In-process retries of a push that the push service asked to retry; default 2 retries from 1 s. */
  pushRetry?: PushRetryPolicy | undefined;
  /**
   * Which addresses webhook requests may reach. Default: public addresses only
   * (a subscription names the URL, so it must not reach the inside);
   * `allowPrivate` for development, `allowedHosts` for named internal receivers.
   */
  webhookPolicy?: OutboundPolicy | undefined;
  /** The same for push services (a browser names the endpoint); default: public addresses only. */
  pushPolicy?: OutboundPolicy | undefined;
  /**
   * What sends and renders. Each defaults to what the practice was created
   * with, else to the shipped one: HTTPS webhooks under `webhookPolicy`, Web
   * Push signed with the practice's VAPID keys (none when keys.vapid is null),
   * PDF summaries with @openpractice/pdf-lib.
   */
  outbound?: Partial<OutboundAdapters> | undefined;
  /**
   * Worker threads that render the shipped PDF summaries, so a multi-page
   * layout does not stall the requests this process serves; default 1. 0
   * renders on the event loop (a host that has no threads to spare). Ignored
   * when a renderer is given in `outbound` or to the practice.
   */
  summaryThreads?: number | undefined;
  /** Hears jobs, webhook attempts and pushes as they finish (the runtime's /metrics); default none. */
  observer?: WorkObserver | undefined;
}

export interface BackgroundWork {
  readonly jobs: JobRunner;
  /** Stops polling, lets running jobs and ticks finish, releases locks. */
  stop(): Promise<void>;
}

/** The fan-out's lock: one process of a deployment moves outbox rows into deliveries. */
const FAN_OUT_TASK = "webhooks-fan-out";
const PURGE_TASK = "purge-rate-limit-windows";
const DOCUMENTS_TASK = "documents-housekeeping";
const TASK_RULES_TASK = "task-rules-reconcile";
const OVERDUE_TASKS_TASK = "tasks-overdue";
const SSO_PURGE_TASK = "sso-grants-purge";
const CLIENT_ASSERTIONS_PURGE_TASK = "client-assertions-purge";

/**
 * Queues the worker runs besides the modules' own: `system.noop` does nothing
 * (operators enqueue it to see that workers are alive; the multi-process test
 * proves each job completes exactly once with it), and the webhook and push
 * deliveries, which batch their reads and commits and retry in process here.
 */
export function builtInJobHandlers(
  practice?: Practice,
  options: { workerId?: string; pushRetry?: PushRetryPolicy; observer?: WorkObserver | undefined } = {},
): Map<string, JobHandler> {
  const { workerId = "worker", pushRetry = DEFAULT_PUSH_RETRY, observer } = options;
  const handlers = new Map<string, JobHandler>([["system.noop", async () => undefined]]);
  if (!practice) return handlers;
  for (const [queue, handler] of practice.moduleJobHandlers()) handlers.set(queue, handler);
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
    const deliveryId = Number((job.payload as { deliveryId: number }).deliveryId);
    const outcome = await practice.webhookDeliveries.sendAttempt(deliveryId, (id) => deliveries.load(id));
    if (outcome === "skipped") return undefined;
    await attempts.record(outcome, job);
    const code = outcome.result.statusCode;
    const kind = !outcome.subscriptionLive
      ? "not_sent"
      : code !== null && code >= 200 && code < 300
        ? "delivered"
        : "failed";
    tell(() => observer?.webhookAttempt?.(kind, code));
    return "completed";
  });
  handlers.set(NOTIFICATION_DELIVERY_QUEUE, pushDeliveryHandler(practice, pushRetry, observer));
  return handlers;
}

/**
 * The periodic tasks of a deployment: the webhook fan-out (polling), the rate-limit purge (every 10 minutes), the
 * patient documents' housekeeping (hourly), the overdue tasks' notices (hourly), the task rules' reconcile (daily)
 * and the purge of single sign-on's spent launch codes (hourly).
 */
function periodicTasks(
  practice: Practice,
  logger: WorkerLogger,
  o: { pollIntervalMs: number; leaseMs: number },
): ScheduledTask[] {
  return [
    {
      // Moves outbox events into webhook deliveries, draining what is pending a batch at a time while the lock is
      // ours. The lock stays with this process between ticks and is released on a graceful stop, so a process
      // started after a crash takes over within one lease.
      name: FAN_OUT_TASK,
      schedule: { everyMs: o.pollIntervalMs },
      lockTtlMs: o.leaseMs,
      keepLock: true,
      run: async (held) => {
        while (held() && (await practice.webhookDeliveries.fanOut(200)) === 200);
      },
    },
    {
      name: PURGE_TASK,
      schedule: { cron: "*/10 * * * *" },
      // Held past the tick, so the other processes skip this tick rather than purge again.
      lockTtlMs: 5 * 60_000,
      run: async () => {
        const removed = await practice.rateLimiter.purgeOldWindows();
        if (removed > 0) logger.debug({ removed }, "purged rate-limit windows");
      },
    },
    {
      // Patient documents: deleted ones past their organisation's retention period are purged (bytes, then row,
      // audited); bulk exports past their expiry lose their files and record; then bytes no document or export
      // file names, older than an hour (an upload or an export slice cut off by a crash), are removed.
      name: DOCUMENTS_TASK,
      schedule: { cron: "23 * * * *" },
      lockTtlMs: 30 * 60_000,
      run: async (held) => {
        let purged = 0;
        while (held()) {
          const batch = await practice.patientDocuments.purgeDue(100);
          purged += batch;
          if (batch < 100) break;
        }
        let exports = 0;
        while (held()) {
          const batch = await practice.bulkExports.purgeExpired(100);
          exports += batch;
          if (batch < 100) break;
        }
        const orphans = held() ? await practice.patientDocuments.sweepOrphans() : [];
        if (purged > 0 || exports > 0 || orphans.length > 0)
          logger.info({ purged, exports, orphans: orphans.length }, "patient documents housekeeping");
      },
    },
    {
      // Launch codes of single sign-on a day past their expiry (their tokens expired long before): one statement.
      name: SSO_PURGE_TASK,
      schedule: { cron: "17 * * * *" },
      lockTtlMs: 5 * 60_000,
      run: async () => {
        const removed = await practice.sso.purgeExpired();
        if (removed > 0) logger.debug({ removed }, "purged single sign-on launch codes");
      },
    },
    {
      // Client assertions past their exp (a replay of one is refused by its exp then): one statement.
      name: CLIENT_ASSERTIONS_PURGE_TASK,
      schedule: { cron: "23 * * * *" },
      lockTtlMs: 5 * 60_000,
      run: async () => {
        const removed = await practice.apiClients.purgeExpiredAssertions();
        if (removed > 0) logger.debug({ removed }, "purged expired client assertions");
      },
    },
    {
      // Tasks past a due time they still owe a notice for: one inbox entry and push each (the row's compare-and-set
      // and the notice's idempotency key keep a rerun from sending it twice).
      name: OVERDUE_TASKS_TASK,
      schedule: { cron: "41 * * * *" },
      lockTtlMs: 30 * 60_000,
      run: async (held) => {
        let sent = 0;
        while (held()) {
          const batch = await practice.taskRules.sendOverdue(500);
          sent += batch;
          if (batch < 500) break;
        }
        if (sent > 0) logger.info({ sent }, "overdue task notices");
      },
    },
    {
      // The task rules' conditions that move with time alone (an authorization's end date coming near, visits used
      // by bookings): one reconcile job per organisation on the queue, which evaluates them and every open system task.
      name: TASK_RULES_TASK,
      schedule: { cron: "15 6 * * *" },
      lockTtlMs: 30 * 60_000,
      run: async () => {
        const queued = await practice.taskRules.queueReconciles();
        logger.debug({ queued }, "task rule reconciles queued");
      },
    },
  ];
}

/** hostname:pid:random: the random part keeps two containers that share a hostname and pid 1 apart. */
export function defaultWorkerId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
}

/**
 * Starts the background work of a practice in this process: the job runner
 * (webhook deliveries, PDF summaries, pushes, every module's jobs) and the
 * periodic tasks. Several processes on one database share the work: jobs are
 * claimed with leases, periodic ticks take store locks. The runtime starts it
 * the same way; an embedding host calls it once at start and `stop()` at
 * shutdown.
 */
export function startBackgroundWork(practice: Practice, options: BackgroundWorkOptions = {}): BackgroundWork {
  const logger = options.logger ?? stderrWarnings;
  const workerId = options.workerId ?? defaultWorkerId();
  const pollIntervalMs = options.pollIntervalMs ?? 1_000;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const publicOnly: OutboundPolicy = { allowPrivate: false, allowedHosts: [] };
  const summaryThreads = options.summaryThreads ?? 1;
  if (!Number.isInteger(summaryThreads) || summaryThreads < 0)
    throw new RangeError(`summaryThreads must be a whole number, got ${summaryThreads}`);
  // The shipped renderer is this process's to close at stop(); one the host gave stays the host's.
  let ownRenderer: ThreadedSummaryRenderer | undefined;
  const shippedRenderer = () => {
    if (summaryThreads === 0) return new PdfLibSummaryRenderer();
    ownRenderer = new ThreadedSummaryRenderer({ threads: summaryThreads });
    return ownRenderer;
  };
  // What the practice was given stays; what it lacks gets the shipped adapter, for its API and its jobs alike.
  practice.useOutbound((current) => ({
    webhookTransport:
      options.outbound?.webhookTransport ??
      current.webhookTransport ??
      createWebhookTransport(options.webhookPolicy ?? publicOnly),
    pushTransport:
      options.outbound?.pushTransport ??
      current.pushTransport ??
      (current.vapid
        ? createPushTransport({
            vapid: current.vapid,
            subject: current.vapid.subject,
            policy: options.pushPolicy ?? publicOnly,
          })
        : undefined),
    summaryRenderer: options.outbound?.summaryRenderer ?? current.summaryRenderer ?? shippedRenderer(),
  }));
  const handlers = builtInJobHandlers(practice, {
    workerId,
    pushRetry: options.pushRetry ?? DEFAULT_PUSH_RETRY,
    observer: options.observer,
  });
  const jobs = new JobRunner({
    observer: options.observer,
    storage: practice.storage,
    clock: practice.clock,
    ids: practice.ids,
    logger,
    workerId,
    handlers,
    pollIntervalMs,
    leaseMs,
  });
  jobs.start();
  const tasks: RunningTask[] = periodicTasks(practice, logger, { pollIntervalMs, leaseMs }).map((task) =>
    startScheduledTask(task, {
      locks: practice.storage.repositories.locks,
      clock: practice.clock,
      holder: workerId,
      logger,
    }),
  );
  let stopping: Promise<void> | undefined;
  return {
    jobs,
    stop: () =>
      (stopping ??= (async () => {
        await Promise.all(tasks.map((t) => t.stop()));
        await jobs.stop();
        await ownRenderer?.close();
      })()),
  };
}
