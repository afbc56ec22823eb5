import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedWebhook {
  at: number;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: Record<string, any>;
}

/**
 * A real HTTP receiver on 127.0.0.1 that records every POST and answers with
 * the next scripted status (200 once the script runs out), like an
 * integrator's endpoint.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private script: number[] = [];
  private server: Server | undefined;
  private waiters: Array<() => void> = [];
  url = "";

  /** `delayMs`: how long each answer takes (to keep deliveries in flight). */
  constructor(private readonly options: { delayMs?: number } = {}) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const body = Buffer.concat(chunks).toString("utf8");
        let json: Record<string, any> = {};
        try {
          json = JSON.parse(body);
        } catch {
          json = {};
        }
        this.received.push({ at: Date.now(), path: req.url ?? "/", headers: req.headers, body, json });
        if (this.options.delayMs) for (const w of this.waiters.splice(0)) w();
        const status = this.script.shift() ?? 200;
        const answer = () => {
          if (res.destroyed) return;
          res.writeHead(status, { "content-type": "text/plain" }).end(status < 300 ? "thanks" : `nope ${status}`);
          for (const w of this.waiters.splice(0)) w();
        };
        if (this.options.delayMs) setTimeout(answer, this.options.delayMs);
        else answer();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** The next responses, in order (e.g. [500, 500] then 200s). */
  respondWith(...statuses: number[]): void {
    this.script.push(...statuses);
  }

  /** Resolves once `predicate` holds for the received list, or rejects after `timeoutMs`. */
  async waitFor(predicate: (received: ReceivedWebhook[]) => boolean, timeoutMs = 10_000): Promise<ReceivedWebhook[]> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.received)) {
      if (Date.now() > deadline)
        throw new Error(
          `webhook receiver: condition not met within ${timeoutMs} ms (${this.received.length} received)`,
        );
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
    return this.received;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
