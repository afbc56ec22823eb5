import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { AggregatorRegistry } from "prom-client";
import type { PracticeMetrics } from "./practice-metrics.js";

/**
 * GET /metrics on a listener of its own (OPENPRACTICE_METRICS_HOST:PORT, loopback by default): the API's port never
 * serves it, so it needs no token and is reachable only where the operator binds it.
 */
export async function startMetricsServer(
  metrics: Pick<PracticeMetrics, "render">,
  host: string,
  port: number,
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path !== "/metrics" || (req.method !== "GET" && req.method !== "HEAD")) {
      res.writeHead(path === "/metrics" ? 405 : 404, { "content-type": "text/plain" }).end("GET /metrics\n");
      return;
    }
    metrics.render().then(
      ({ contentType, body }) =>
        res.writeHead(200, { "content-type": contentType }).end(req.method === "HEAD" ? "" : body),
      (error: Error) =>
        res.writeHead(503, { "content-type": "text/plain" }).end(`metrics unavailable: ${error.message}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${address.port}/metrics`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * In a worker of `serve --workers`: answer the primary's requests for this process's metrics (prom-client's cluster
 * messages over the IPC channel). The constructor is what installs prom-client's listener.
 */
export function shareMetricsWithPrimary(metrics: PracticeMetrics): void {
  AggregatorRegistry.setRegistries([metrics.registry]);
  new AggregatorRegistry();
}

/**
 * In the primary of `serve --workers`: the workers' metrics in one exposition. Counters and histograms are summed
 * over the workers; gauges read from the database say how they combine (`aggregator` in practice-metrics.ts).
 */
export function clusterMetrics(): Pick<PracticeMetrics, "render"> {
  const registry = new AggregatorRegistry();
  return { render: async () => ({ contentType: registry.contentType, body: await registry.clusterMetrics() }) };
}
