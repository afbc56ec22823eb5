import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { PracticeMetrics } from "./practice-metrics.js";

/**
 * GET /metrics on a listener of its own (OPENPRACTICE_METRICS_HOST:PORT, loopback by default): the API's port never
 * serves it, so it needs no token and is reachable only where the operator binds it.
 */
export async function startMetricsServer(
  metrics: PracticeMetrics,
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
