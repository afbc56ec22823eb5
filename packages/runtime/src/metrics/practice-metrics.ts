import type { Practice } from "@openpractice/core";
import type { RequestLogEntry } from "@openpractice/http";
import { builtInJobHandlers, type WorkObserver } from "@openpractice/worker";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

/** The metrics of one practice instance in Prometheus' text format, from prom-client. */
export interface PracticeMetrics {
  readonly registry: Registry;
  /** Pass to startBackgroundWork: counts jobs, webhook attempts and pushes as they finish. */
  readonly observer: WorkObserver;
  /** Pass each finished request (createHttpHandler's onRequestComplete). */
  onRequest(entry: RequestLogEntry): void;
  /** The exposition: content type and body. */
  render(): Promise<{ contentType: string; body: string }>;
}

/** Request durations in seconds: from a cached read (1 ms) to the 30 s request limit. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * Builds the metrics of `practice` in a registry of its own (two instances in one process never share one).
 * Counters count what this process did; the job backlog and the database pool are read when scraped.
 */
export function createPracticeMetrics(practice: Practice, options: { defaultMetrics?: boolean } = {}): PracticeMetrics {
  const registry = new Registry();
  if (options.defaultMetrics !== false) collectDefaultMetrics({ register: registry, prefix: "openpractice_" });
  const requests = new Counter({
    name: "openpractice_http_requests_total",
    help: "HTTP requests answered, by method, route pattern and status",
    labelNames: ["method", "route", "status"] as const,
    registers: [registry],
  });
  const durations = new Histogram({
    name: "openpractice_http_request_duration_seconds",
    help: "Time to answer an HTTP request, by method and route pattern",
    labelNames: ["method", "route"] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const jobsFinished = new Counter({
    name: "openpractice_jobs_finished_total",
    help: "Background jobs run by this process, by queue and outcome (completed, retried, failed)",
    labelNames: ["queue", "outcome"] as const,
    registers: [registry],
  });
  const jobSeconds = new Histogram({
    name: "openpractice_job_duration_seconds",
    help: "Time a background job ran, by queue",
    labelNames: ["queue"] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const webhookAttempts = new Counter({
    name: "openpractice_webhook_attempts_total",
    help: "Webhook delivery attempts by this process, by outcome (delivered, failed, not_sent)",
    labelNames: ["outcome"] as const,
    registers: [registry],
  });
  const pushAttempts = new Counter({
    name: "openpractice_push_attempts_total",
    help: "Web Push attempts to one device by this process, by outcome",
    labelNames: ["outcome"] as const,
    registers: [registry],
  });
  // Every queue a worker of this release runs, so an empty queue shows zeros rather than nothing.
  const queues = [...builtInJobHandlers(practice).keys()].sort();
  const backlog = new Gauge({
    name: "openpractice_jobs",
    help: "Jobs in the store by queue and state: due (pending, run_at passed), scheduled (pending, later), failed",
    labelNames: ["queue", "state"] as const,
    registers: [registry],
    // Read from the shared database: every worker of `serve --workers` sees the same backlog, so not a sum.
    aggregator: "max",
    async collect() {
      const now = practice.clock.now();
      for (const s of await practice.storage.repositories.jobs.stats(queues, now)) {
        this.set({ queue: s.queue, state: "due" }, s.due);
        this.set({ queue: s.queue, state: "scheduled" }, s.scheduled);
        this.set({ queue: s.queue, state: "failed" }, s.failed);
        oldest.set(
          { queue: s.queue },
          s.oldestDueAt ? Math.max(0, (now.getTime() - s.oldestDueAt.getTime()) / 1000) : 0,
        );
      }
    },
  });
  const oldest = new Gauge({
    name: "openpractice_job_oldest_due_seconds",
    help: "How long the oldest due job of each queue has waited (0: none waiting)",
    labelNames: ["queue"] as const,
    registers: [registry],
    aggregator: "max",
  });
  new Gauge({
    name: "openpractice_db_pool_connections",
    help: "Database pool connections by state (open, idle, waiting callers, max); absent on SQLite",
    labelNames: ["state"] as const,
    registers: [registry],
    collect() {
      const pool = practice.storage.poolStats?.();
      if (!pool) return;
      this.set({ state: "open" }, pool.total);
      this.set({ state: "idle" }, pool.idle);
      this.set({ state: "waiting" }, pool.waiting);
      this.set({ state: "max" }, pool.max);
    },
  });
  new Gauge({
    name: "openpractice_client_secret_checks",
    help: "scrypt computations of client secrets (token endpoint, new and rotated secrets) by state: running, or waiting for a place (at most half the cores run at once)",
    labelNames: ["state"] as const,
    registers: [registry],
    collect() {
      const { running, waiting } = practice.apiClients.secretHashingStats();
      this.set({ state: "running" }, running);
      this.set({ state: "waiting" }, waiting);
    },
  });
  void backlog;
  return {
    registry,
    observer: {
      jobFinished(queue, outcome, seconds) {
        jobsFinished.inc({ queue, outcome });
        jobSeconds.observe({ queue }, seconds);
      },
      webhookAttempt: (outcome) => webhookAttempts.inc({ outcome }),
      pushAttempt: (outcome) => pushAttempts.inc({ outcome }),
    },
    onRequest(entry) {
      requests.inc({ method: entry.method, route: entry.route, status: String(entry.status) });
      durations.observe({ method: entry.method, route: entry.route }, entry.durationMs / 1000);
    },
    async render() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}
