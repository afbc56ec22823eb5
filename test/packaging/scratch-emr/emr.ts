// An EMR's Express 5 server written from docs/embedding.md, as a vendor would: its own JSON parser app-wide before
// OpenPractice, webhooks to an http:// receiver on this machine (the two documented options), and the documented
// shutdown order. test/packaging/pack-install.mjs copies it into a project outside the repository that installed the
// packed tarballs with the page's install line, type-checks it as an ES module and as CommonJS there, runs it
// (`node emr.ts`) and drives it over HTTP. It prints one JSON line per event on stdout for the driver to wait on.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createPractice } from "@openpractice/core";
import { openPracticeMiddleware } from "@openpractice/express";
import { createHttpHandler, createJwtAuthenticator } from "@openpractice/http";
import { createSqliteStorage } from "@openpractice/sqlite";
import { startBackgroundWork } from "@openpractice/worker";
import express from "express";

const say = (event: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(event)}\n`);

async function main(): Promise<void> {
  const env = process.env;
  const storage = await createSqliteStorage({ filename: env.EMR_DATABASE ?? "emr.sqlite" }); // applies migrations
  const practice = createPractice({
    storage,
    keys: { webhookSecretKey: env.EMR_WEBHOOK_KEY, vapid: null },
    allowHttpWebhooks: true, // the receiver is http://127.0.0.1:…
  });
  const background = startBackgroundWork(practice, {
    webhookPolicy: { allowPrivate: true, allowedHosts: [] }, // deliveries may reach loopback
    pollIntervalMs: 100,
  });
  const handler = createHttpHandler({
    practice,
    authenticator: createJwtAuthenticator({ secret: env.EMR_JWT_SECRET ?? "" }),
  });

  const app = express();
  // The EMR's request log: a line as soon as a request's headers are in, before any body is read.
  app.use((req, _res, next) => {
    say({ request: `${req.method} ${req.originalUrl}` });
    next();
  });
  app.use(express.json()); // the EMR's own parser, for every path, before OpenPractice
  app.use("/emr", openPracticeMiddleware(handler));
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  say({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/emr` });

  async function shutDown(): Promise<void> {
    // 1. No new connections. Keep-alive connections close once their answer is sent; after 10 s the rest are cut.
    const drained = new Promise((resolve) => server.close(resolve));
    const idle = setInterval(() => server.closeIdleConnections(), 100);
    const deadline = setTimeout(() => server.closeAllConnections(), 10_000);
    await drained;
    clearInterval(idle);
    clearTimeout(deadline);
    say({ stopped: "server" });
    // 2. Running jobs finish and release their leases; scheduled tasks release their locks.
    await background.stop();
    say({ stopped: "background work" });
    // 3. Last: nothing uses the store any more.
    await storage.close();
    say({ stopped: "storage" });
  }
  process.once("SIGTERM", () => {
    say({ shutdown: "started" });
    void shutDown().then(() => process.exit(0));
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
