import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { hostname } from "node:os";
import type { Clock, Practice, Storage } from "@openpractice/core";
import { createH3NodeServer } from "@openpractice/h3";
import { headerOverflowListener, RECOMMENDED_MAX_HEADER_BYTES, type FetchHandler } from "@openpractice/http";
import type { DependencyContainer } from "tsyringe";
import { DEFAULT_VAPID_SUBJECT, type RuntimeConfig } from "./config/config.js";
import { resolveHs256Secret } from "./config/jwt-secret.js";
import { resolveRuntimeKeys } from "./config/practice-keys.js";
import { resolveSigningKeys } from "./config/signing-keys.js";
import { composeContainer, TOKENS } from "./container.js";
import { createLogger, type Logger } from "./logger.js";
import { engineForUrl } from "./engines.js";
import { openStorage } from "./storage-from-url.js";
import { startBackgroundWork } from "@openpractice/worker";
import { shareMetricsWithPrimary, startMetricsServer } from "./metrics/metrics-server.js";
import { createPracticeMetrics, type PracticeMetrics } from "./metrics/practice-metrics.js";

export interface RuntimeHandle {
  /** Base URL the server listens on, e.g. http://127.0.0.1:8080 */
  url: string;
  port: number;
  /** Where GET /metrics answers (OPENPRACTICE_METRICS_PORT), or undefined when metrics are off. */
  metricsUrl: string | undefined;
  container: DependencyContainer;
  practice: Practice;
  /** Stops accepting, lets in-flight requests finish (up to the shutdown timeout), stops workers, closes the database. */
  stop(): Promise<void>;
}

export interface StartOptions {
  config: RuntimeConfig;
  logger?: Logger;
  clock?: Clock;
  /**
   * This process is one of `serve --workers`' workers: the primary serves /metrics for all of them (summed), so the
   * worker hands it its registry instead of listening on OPENPRACTICE_METRICS_PORT itself.
   */
  clusterWorker?: boolean;
}

/**
 * The keys of the data directory (or the environment), generated on first start and logged when they are: run once
 * by `serve --workers`' primary before it forks, so its workers all read the same files instead of racing to write them.
 */
export async function resolveStartupKeys(config: RuntimeConfig, logger: Logger) {
  const hs256 = resolveHs256Secret(config);
  if (hs256?.source === "generated")
    logger.info({ file: `${config.dataDir}/jwt-secret` }, "generated a JWT signing secret");
  const { keys, webhookKeySource, vapidSource } = resolveRuntimeKeys(config);
  if (webhookKeySource === "generated")
    logger.info(
      { file: `${config.dataDir}/webhook-secret-key` },
      "generated the key that encrypts webhook signature keys; back it up with the database",
    );
  if (vapidSource === "generated")
    logger.info(
      { file: `${config.dataDir}/vapid-keys.json` },
      "generated the VAPID key pair for Web Push; back it up with the database (a new pair makes every browser subscribe again)",
    );
  if (config.env === "production" && config.vapidSubject === DEFAULT_VAPID_SUBJECT)
    logger.warn(
      "OPENPRACTICE_VAPID_SUBJECT is not set: push services see a placeholder contact; set a mailto: address or https: URL of yours",
    );
  const signing = await resolveSigningKeys(config.dataDir);
  if (signing.source === "generated")
    logger.info(
      { file: `${config.dataDir}/token-signing-keys.json` },
      "generated the ES256 key that signs tokens of /oauth/token; back it up with the database",
    );
  return { hs256, keys, signing };
}

/** Opens the store (migrating it), composes the instance and starts the HTTP server and workers. */
export async function startRuntime(options: StartOptions): Promise<RuntimeHandle> {
  const { config } = options;
  const logger = options.logger ?? createLogger(config.logLevel);
  const { hs256, keys, signing } = await resolveStartupKeys(config, logger);
  const storage = await openStorage(
    config.databaseUrl,
    (error) => logger.warn({ err: { message: error.message } }, "database connection dropped; the pool replaces it"),
    {
      readUrls: config.databaseReadUrls,
      readYourWritesMs: config.readYourWritesMs,
      onReplicaDown: (replica, error) =>
        logger.warn(
          { replica, err: { message: error instanceof Error ? error.message : String(error) } },
          "read replica failed; its reads go to the primary for now",
        ),
    },
  );
  // Created once the practice exists (below); requests answered before that are not counted.
  let metrics: PracticeMetrics | undefined;
  const container = composeContainer({
    onRequest: (entry) => metrics?.onRequest(entry),
    config,
    logger,
    storage,
    jwtSecret: hs256?.secret,
    keys,
    signingKeys: signing.keys,
    clock: options.clock,
  });
  const practice = container.resolve<Practice>(TOKENS.Practice);
  if (config.metricsPort !== undefined) metrics = createPracticeMetrics(practice);
  // Room for a token of MAX_TOKEN_LENGTH; larger headers get the contract's 401 rather than Node's bare 431.
  const server = createH3NodeServer(container.resolve<FetchHandler>(TOKENS.HttpHandler), {
    maxHeaderSize: RECOMMENDED_MAX_HEADER_BYTES,
  });
  server.on(
    "clientError",
    headerOverflowListener({ maxHeaderBytes: RECOMMENDED_MAX_HEADER_BYTES, now: () => practice.clock.now() }),
  );
  server.requestTimeout = 30_000;

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${port}`;
  // Leases and the fan-out lock are held by this id: the random part keeps two containers that share a hostname,
  // pid 1 and a port (or a process restarted with the same pid) from counting as one holder.
  const workerId = `${hostname()}:${process.pid}:${port}:${randomBytes(4).toString("hex")}`;
  const workers = startBackgroundWork(practice, {
    logger,
    workerId,
    pollIntervalMs: config.workerPollMs,
    leaseMs: config.jobLeaseMs,
    pushRetry: { retries: config.pushRetries, baseDelayMs: config.pushRetryBaseMs },
    webhookPolicy: { allowPrivate: config.env === "development", allowedHosts: config.webhookAllowedHosts },
    pushPolicy: { allowPrivate: config.env === "development", allowedHosts: config.pushAllowedHosts },
    observer: metrics?.observer,
    summaryThreads: config.summaryThreads,
  });
  if (metrics && options.clusterWorker) shareMetricsWithPrimary(metrics);
  const metricsServer =
    metrics && !options.clusterWorker
      ? await startMetricsServer(metrics, config.metricsHost, config.metricsPort ?? 0)
      : undefined;
  if (metricsServer) logger.info({ url: metricsServer.url }, "metrics listening");
  const driverSettings = await engineForUrl(config.databaseUrl)?.settings?.(config.databaseUrl);
  logger.info(
    { url, engine: storage.capabilities.engine, env: config.env, ...driverSettings },
    "openpractice listening",
  );

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      logger.info("shutting down: no new connections, finishing in-flight requests");
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const timer = setTimeout(() => {
        logger.warn({ timeout_ms: config.shutdownTimeoutMs }, "shutdown timeout: closing remaining connections");
        server.closeAllConnections();
      }, config.shutdownTimeoutMs);
      await closed;
      clearTimeout(timer);
      await workers.stop();
      await metricsServer?.close();
      await container.resolve<Storage>(TOKENS.Storage).close();
      logger.info("shutdown complete");
    })());

  return { url, port, metricsUrl: metricsServer?.url, container, practice, stop };
}
