// An EMR's Express 5 server embedding OpenPractice, as a vendor writes it from docs/embedding.md: the handler under
// /op, background work beside it, keys from the environment. test/embedding/background-work.test.ts starts it as a
// separate process (twice, on one database) and talks to it over HTTP only. It loads the built packages (dist/).
import { createServer } from "node:http";
import { createPractice } from "@openpractice/core";
import { openPracticeMiddleware } from "@openpractice/express";
import { createHttpHandler, createJwtAuthenticator } from "@openpractice/http";
import { startBackgroundWork } from "@openpractice/worker";
import express from "express";

const env = process.env;

async function openStorage(url) {
  if (url.startsWith("sqlite:"))
    return (await import("@openpractice/sqlite")).createSqliteStorage({ filename: url.slice("sqlite:".length) });
  if (url.startsWith("postgres")) return (await import("@openpractice/postgres")).createPostgresStorage({ url });
  return (await import("@openpractice/mysql")).createMysqlStorage({ url });
}

const vapid = env.EMR_VAPID_PUBLIC_KEY
  ? { publicKey: env.EMR_VAPID_PUBLIC_KEY, privateKey: env.EMR_VAPID_PRIVATE_KEY, subject: "mailto:it@clinic.example" }
  : null;
const storage = await openStorage(env.DATABASE_URL);
let practice;
try {
  // Local receivers and push services run on 127.0.0.1 in the test, hence http:// and private addresses.
  practice = createPractice({
    storage,
    keys: { webhookSecretKey: env.EMR_WEBHOOK_KEY, vapid },
    allowHttpWebhooks: true,
    allowHttpPushEndpoints: true,
  });
} catch (error) {
  process.stderr.write(`${error.name}: ${error.message}\n`);
  await storage.close();
  process.exit(1);
}
const local = { allowPrivate: true, allowedHosts: [] };
const background = startBackgroundWork(practice, {
  workerId: env.EMR_WORKER_ID,
  pollIntervalMs: 20,
  webhookPolicy: local,
  pushPolicy: local,
});
const handler = createHttpHandler({ practice, authenticator: createJwtAuthenticator({ secret: env.EMR_JWT_SECRET }) });

const app = express();
app.use("/op", openPracticeMiddleware(handler));
app.get("/", (_req, res) => void res.send("the EMR"));
const server = createServer(app);
server.listen(0, "127.0.0.1", () =>
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${server.address().port}/op` })}\n`),
);

process.once("SIGTERM", async () => {
  await new Promise((resolve) => server.close(resolve));
  await background.stop();
  await storage.close();
  process.exit(0);
});
