import { AesGcmSecretCipher, createPractice, type Repositories, type Storage } from "@openpractice/core";
import { createSqliteStorage } from "@openpractice/sqlite";
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { JobRunner } from "./job-runner.js";
import { createWebhookTransport } from "./webhook-transport.js";
import { builtInJobHandlers } from "./background-work.js";

const T0 = new Date("2031-01-01T00:00:00Z");
const silent = { debug() {}, info() {}, warn() {}, error() {} } as never;

describe("the webhook delivery handler", () => {
  let storage: Storage;
  let receiver: Server;
  let received: string[];
  let reads: number[][];

  beforeEach(async () => {
    received = [];
    reads = [];
    receiver = createServer((req, res) => {
      received.push(String(req.headers["x-event-id"]));
      req.resume().on("end", () => res.writeHead(200).end());
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const real = await createSqliteStorage({ filename: ":memory:" });
    // Record each call of findDeliveriesForAttempt (the storage itself is real SQLite).
    const webhooks = Object.assign(Object.create(real.repositories.webhooks), {
      findDeliveriesForAttempt: (ids: number[]) => (
        reads.push([...ids]), real.repositories.webhooks.findDeliveriesForAttempt(ids)
      ),
    });
    storage = Object.assign(Object.create(real), {
      repositories: { ...real.repositories, webhooks } as Repositories,
      close: () => real.close(),
    }) as Storage;
  });
  afterEach(async () => {
    await storage.close();
    await new Promise((resolve) => receiver.close(resolve));
  });

  it("reads the deliveries of the jobs a claim starts together in one read, then delivers and completes each", async () => {
    const cipher = new AesGcmSecretCipher(randomBytes(32));
    const practice = createPractice({
      keys: { vapid: null },
      storage,
      webhookCipher: cipher,
      clock: { now: () => T0 },
      webhookTransport: createWebhookTransport({ allowPrivate: true, allowedHosts: [] }),
    });
    const r = storage.repositories;
    await r.organisations.ensure({ id: 1, name: "o", plan: "free", now: T0 });
    const { port } = receiver.address() as { port: number };
    const sub = await r.webhooks.insertSubscription({
      organisationId: 1,
      name: "s",
      eventTypes: ["patient.created"],
      notificationUrl: `http://127.0.0.1:${port}/hook`,
      apiVersion: "2026-06-11",
      isActive: true,
      encryptedKey: cipher.encrypt("k".repeat(128)),
      previousEncryptedKey: null,
      previousKeyExpiresAt: null,
      signatureFormat: "service",
      createdAt: T0,
      updatedAt: T0,
    });
    const deliveries = await r.webhooks.insertDeliveries(
      Array.from({ length: 6 }, (_, i) => ({
        organisationId: 1,
        subscriptionId: sub.id,
        outboxId: i + 1,
        eventId: `evt_${i}`,
        eventType: "patient.created" as const,
        apiVersion: "2026-06-11",
        data: { organisation_id: 1, patient_id: i },
        status: "pending" as const,
        attempts: 0,
        nextAttemptAt: T0,
        lastStatusCode: null,
        createdAt: T0,
        updatedAt: T0,
      })),
    );
    await r.jobs.enqueueMany(
      deliveries.map((d) => ({ queue: "webhooks.deliver", payload: { deliveryId: d.id }, runAt: T0 })),
    );

    const runner = new JobRunner({
      storage,
      clock: practice.clock,
      ids: practice.ids,
      logger: silent,
      workerId: "worker-a",
      handlers: builtInJobHandlers(practice, { workerId: "worker-a" }),
      pollIntervalMs: 10,
    });
    expect(await runner.pollOnce()).toBe(6);

    expect(reads).toEqual([deliveries.map((d) => d.id)]);
    expect(received.sort()).toEqual(deliveries.map((d) => d.eventId).sort());
    const stored = await Promise.all(deliveries.map((d) => r.webhooks.findDelivery(1, d.id)));
    expect(stored.map((d) => [d?.status, d?.attempts, d?.lastStatusCode])).toEqual(
      deliveries.map(() => ["delivered", 1, 200]),
    );
    // Every job is done: nothing is claimable even long after the lease would have run out.
    expect(
      await r.jobs.claim("webhooks.deliver", {
        limit: 10,
        now: new Date(T0.getTime() + 86_400_000),
        leaseMs: 1000,
        leaseToken: "later",
      }),
    ).toEqual([]);
  });
});
