import cluster, { type Worker } from "node:cluster";
import { availableParallelism } from "node:os";
import type { RuntimeConfig } from "../config/config.js";
import { engineForUrl } from "../engines.js";
import type { Logger } from "../logger.js";
import { clusterMetrics, startMetricsServer } from "../metrics/metrics-server.js";
import { resolveStartupKeys } from "../runtime.js";
import { openStorage } from "../storage-from-url.js";
import { UsageError } from "./usage-error.js";

/** More processes than this is a typo, and each opens a pool of its own on the database server. */
export const MAX_WORKERS = 256;

/** Which of the N workers a process is (1..N): kept by its replacement after a crash, so logs follow one slot. */
const SLOT_VARIABLE = "OPENPRACTICE_WORKER_SLOT";

/** A worker that exits within this long of its start counts as failing at start. */
const QUICK_FAILURE_MS = 10_000;
/** After this many quick failures in a row of one slot the primary stops everything and exits 1. */
export const MAX_QUICK_FAILURES = 5;
/** Restart delays after quick failures: 0.5 s, 1 s, 2 s, 4 s (a worker that ran longer restarts at once). */
const RESTART_BASE_DELAY_MS = 500;

/** `--workers N`: a whole number of processes, 1 to MAX_WORKERS. */
export function parseWorkersFlag(raw: string): number {
  const n = Number(raw);
  if (raw.trim() === "" || !Number.isSafeInteger(n) || n < 1 || n > MAX_WORKERS)
    throw new UsageError(`--workers must be a whole number from 1 to ${MAX_WORKERS} (got '${raw}')`);
  return n;
}

/**
 * How many processes `serve` runs: the flag, else OPENPRACTICE_WORKERS, else one per core on PostgreSQL and MySQL
 * and 1 on SQLite, whose single writer makes a second process wait for the file's lock rather than add throughput.
 */
export function workerCount(flag: number | undefined, config: RuntimeConfig): number {
  if (flag !== undefined) return flag;
  if (config.workers !== undefined) return config.workers;
  return engineForUrl(config.databaseUrl)?.name === "sqlite" ? 1 : availableParallelism();
}

/** True in a process forked by `serve --workers`' primary. */
export const isClusterWorker = () => cluster.isWorker;

/** A worker's log lines say which worker and process wrote them (the primary logs them when they start and die). */
export const workerLogger = (logger: Logger): Logger =>
  logger.child({ worker: Number(process.env[SLOT_VARIABLE]), pid: process.pid });

/**
 * The primary of `serve --workers N`: generates the data directory's keys and applies migrations once, forks N
 * workers that each run the whole runtime (HTTP server on the one shared port, background work, their own pool),
 * restarts a worker that dies (with a back-off; gives up with exit 1 when one keeps dying at start), serves /metrics
 * summed over the workers, and on SIGTERM or SIGINT stops them all gracefully and exits 0.
 */
export async function runPrimary(config: RuntimeConfig, count: number, logger: Logger): Promise<void> {
  const log = logger.child({ role: "primary", pid: process.pid });
  await resolveStartupKeys(config, log);
  // Migrations before any worker opens the store: each worker's own pass then finds nothing to apply.
  const storage = await openStorage(config.databaseUrl);
  await storage.close();
  const metricsServer =
    config.metricsPort !== undefined
      ? await startMetricsServer(clusterMetrics(), config.metricsHost, config.metricsPort)
      : undefined;
  if (metricsServer) log.info({ url: metricsServer.url }, "metrics listening (summed over the workers)");

  let stopping = false;
  let failedExit = false;
  const quickFailures = new Map<number, number>();
  const restartTimers = new Set<NodeJS.Timeout>();
  const startedAt = new Map<Worker, number>();
  const slotOf = new Map<Worker, number>();
  const live = new Set<Worker>();
  let finish: (code: number) => void = () => {};
  const finished = new Promise<number>((resolve) => (finish = resolve));

  const fork = (slot: number) => {
    const worker = cluster.fork({ [SLOT_VARIABLE]: String(slot) });
    slotOf.set(worker, slot);
    live.add(worker);
    startedAt.set(worker, Date.now());
    log.info({ worker: slot, worker_pid: worker.process.pid }, "worker started");
    worker.on("listening", (address) => {
      log.info({ worker: slot, worker_pid: worker.process.pid, port: address.port }, "worker listening");
    });
  };

  const stopAll = (reason: string) => {
    if (stopping) return;
    stopping = true;
    for (const timer of restartTimers) clearTimeout(timer);
    restartTimers.clear();
    log.info({ reason, workers: live.size }, "stopping the workers");
    // Each worker's own SIGTERM handler closes its listener, finishes in-flight requests and background work.
    for (const worker of live) worker.process.kill("SIGTERM");
    // A worker stuck past its own shutdown timeout is killed, so the primary always ends.
    setTimeout(() => {
      for (const worker of live) {
        log.warn({ worker: slotOf.get(worker), worker_pid: worker.process.pid }, "worker did not stop: killing it");
        worker.process.kill("SIGKILL");
      }
    }, config.shutdownTimeoutMs + 5_000).unref();
    if (live.size === 0) finish(failedExit ? 1 : 0);
  };

  cluster.on("exit", (worker, code, signal) => {
    const slot = slotOf.get(worker) ?? 0;
    const uptime = Date.now() - (startedAt.get(worker) ?? Date.now());
    slotOf.delete(worker);
    startedAt.delete(worker);
    live.delete(worker);
    const fields = { worker: slot, worker_pid: worker.process.pid, code, signal, uptime_ms: uptime };
    if (stopping) {
      // Before its handler is installed a starting worker ends by the signal itself: no request was in flight.
      const clean = code === 0 || signal === "SIGTERM" || signal === "SIGINT";
      if (!clean) failedExit = true;
      log[clean ? "info" : "warn"](fields, "worker stopped");
      if (live.size === 0) finish(failedExit ? 1 : 0);
      return;
    }
    log.error(fields, "worker died");
    const failures = uptime < QUICK_FAILURE_MS ? (quickFailures.get(slot) ?? 0) + 1 : 0;
    quickFailures.set(slot, failures);
    if (failures >= MAX_QUICK_FAILURES) {
      log.fatal(
        { worker: slot, quick_failures: failures },
        `worker ${slot} died within ${QUICK_FAILURE_MS / 1000} s of starting ${failures} times in a row: giving up`,
      );
      failedExit = true;
      stopAll("a worker keeps failing");
      return;
    }
    const delay = failures === 0 ? 0 : RESTART_BASE_DELAY_MS * 2 ** (failures - 1);
    log.info({ worker: slot, delay_ms: delay, quick_failures: failures }, "restarting worker");
    const timer = setTimeout(() => {
      restartTimers.delete(timer);
      if (!stopping) fork(slot);
    }, delay);
    restartTimers.add(timer);
  });

  const onSignal = (signal: NodeJS.Signals) => {
    log.info({ signal }, "signal received");
    stopAll(signal);
  };
  process.once("SIGTERM", onSignal);
  process.once("SIGINT", onSignal);

  log.info({ workers: count, engine: engineForUrl(config.databaseUrl)?.name }, "starting workers");
  for (let slot = 1; slot <= count; slot++) fork(slot);

  const code = await finished;
  await metricsServer?.close();
  log[code === 0 ? "info" : "error"]({ code }, "shutdown complete");
  process.exit(code);
}
