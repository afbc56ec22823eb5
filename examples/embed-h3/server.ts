/**
 * Embedding OpenPractice in an existing h3 application.
 *
 * The host app already has its own users and API keys. It maps them to
 * OpenPractice principals with a custom Authenticator (no JWTs involved), keeps
 * its own routes, and mounts the OpenPractice API under /emr.
 *
 * test/examples/embed-h3.test.ts runs it. By hand, after `npm run build`, on Node 22.6+:
 *   node --experimental-strip-types examples/embed-h3/server.ts
 */
import { createServer, type Server } from "node:http";
import { createPractice, DomainError, type Principal, type PracticeKeys } from "@openpractice/core";
import { createH3App } from "@openpractice/h3";
import { startBackgroundWork, type OutboundPolicy } from "@openpractice/worker";
import { createHttpHandler, type Authenticator } from "@openpractice/http";
import { createSqliteStorage } from "@openpractice/sqlite";
import { H3 } from "h3";
import { toNodeHandler } from "h3/node";

/** The host EMR's own user table, keyed by API key. */
const EMR_USERS: Record<string, { practiceId: number; staffId: number; displayName: string; canWrite: boolean }> = {
  "key-front-desk": { practiceId: 40, staffId: 7, displayName: "Front desk", canWrite: true },
  "key-auditor": { practiceId: 40, staffId: 8, displayName: "Auditor", canWrite: false },
};

/** Maps the EMR's API keys to OpenPractice principals. */
const emrAuthenticator: Authenticator = {
  async authenticate(request: Request): Promise<Principal> {
    const user = EMR_USERS[request.headers.get("x-emr-key") ?? ""];
    if (!user) throw new DomainError("UNAUTHORIZED", "Authentication required", { reason: "unknown EMR key" });
    return {
      organisationId: user.practiceId,
      userId: user.staffId,
      name: user.displayName,
      scopes: user.canWrite ? ["read", "write"] : ["read"],
      clinicIds: [],
      roles: ["staff"],
    };
  },
};

export async function startEmbeddedEmr(options: {
  port: number;
  databaseFile: string;
  /** Kept by the EMR, never generated at start: see docs/embedding.md. */
  keys: PracticeKeys;
  /** Which addresses webhooks may reach (default: public only). */
  webhookPolicy?: OutboundPolicy;
}): Promise<{ server: Server; url: string; close(): Promise<void> }> {
  const storage = await createSqliteStorage({ filename: options.databaseFile });
  const practice = createPractice({ storage, keys: options.keys });
  // Webhook deliveries, PDF summaries and pushes run in this process, beside the EMR.
  const background = startBackgroundWork(practice, { webhookPolicy: options.webhookPolicy });
  const openPractice = createHttpHandler({ practice, authenticator: emrAuthenticator });

  const app = new H3();
  app.get("/", () => ({ app: "Example EMR", openpractice: "/emr" }));
  // Everything under /emr is OpenPractice; the EMR's other routes stay its own.
  const mounted = createH3App(openPractice, { prefix: "/emr" });
  app.all("/emr", (event) => mounted.fetch(event.req));
  app.all("/emr/**", (event) => mounted.fetch(event.req));

  const server = createServer(toNodeHandler(app));
  await new Promise<void>((resolve) => server.listen(options.port, "127.0.0.1", resolve));
  const address = server.address() as { port: number };
  return {
    server,
    url: `http://127.0.0.1:${address.port}`,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await background.stop();
      await storage.close();
    },
  };
}

/** The EMR's keys from its environment (the variable names the runtime reads too). */
function keysFromEnvironment(): PracticeKeys {
  const env = process.env;
  const vapid = env.OPENPRACTICE_VAPID_PUBLIC_KEY
    ? {
        publicKey: env.OPENPRACTICE_VAPID_PUBLIC_KEY,
        privateKey: env.OPENPRACTICE_VAPID_PRIVATE_KEY ?? "",
        subject: env.OPENPRACTICE_VAPID_SUBJECT ?? "",
      }
    : null;
  return { webhookSecretKey: env.OPENPRACTICE_WEBHOOK_SECRET_KEY, vapid };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const emr = await startEmbeddedEmr({
    port: 8090,
    databaseFile: "./data/embedded-emr.db",
    keys: keysFromEnvironment(),
  });
  console.log(`Example EMR on ${emr.url}; try: curl -H 'x-emr-key: key-front-desk' ${emr.url}/emr/v2/patients`);
}
