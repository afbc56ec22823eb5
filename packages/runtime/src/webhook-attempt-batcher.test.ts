import { AesGcmSecretCipher, createPractice, type AttemptOutcome, type Repositories, type Storage, type WebhookDelivery } from "@openpractice/core";
import { createSqliteStorage } from "@openpractice/sqlite";
import { randomBytes } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WebhookAttemptBatcher } from "./webhook-attempt-batcher.js";

const T0 = new Date("2031-01-01T00:00:00Z");

describe("WebhookAttemptBatcher (group commit of webhook attempts)", () => {
  let storage: Storage;
  let transactions = 0;
  let deliveries: WebhookDelivery[];

  beforeEach(async () => {
    storage = await createSqliteStorage({ filename: ":memory:" });
    const transaction = storage.transaction.bind(storage);
    transactions = 0;
    // Count the transactions the batcher opens (the storage itself is real SQLite).
    storage = Object.assign(Object.create(storage), { transaction: (fn: (tx: Repositories) => Promise<unknown>) => ((transactions += 1), transaction(fn)) }) as Storage;
    const r = storage.repositories;
    await r.organisations.ensure({ id: 1, name: "o", plan: "free", now: T0 });
    const sub = await r.webhooks.insertSubscription({ organisationId: 1, name: "s", eventTypes: ["patient.created"], notificationUrl: "https://example.org/h", apiVersion: "2026-06-11", isActive: true, encryptedKey: "v1.x", createdAt: T0, updatedAt: T0 });
    deliveries = await r.webhooks.insertDeliveries(
      Array.from({ length: 5 }, (_, i) => ({ organisationId: 1, subscriptionId: sub.id, outboxId: i + 1, eventId: `evt_${i}`, eventType: "patient.created" as const, apiVersion: "2026-06-11", data: { organisation_id: 1, patient_id: i }, status: "pending" as const, attempts: 0, nextAttemptAt: T0, lastStatusCode: null, createdAt: T0, updatedAt: T0 })),
    );
  });
  afterEach(async () => {
    await storage.close();
  });

  const outcome = (d: WebhookDelivery, statusCode: number): AttemptOutcome => ({ delivery: d, subscriptionLive: true, attemptId: `att-${d.id}`, result: { statusCode, durationMs: 3, error: null, responseExcerpt: "ok" }, at: T0 });
  const practiceOn = () => createPractice({ storage, webhookCipher: new AesGcmSecretCipher(randomBytes(32)), clock: { now: () => T0 } });

  it("records attempts that finish in the same turn in one transaction, with each caller's own work", async () => {
    const batcher = new WebhookAttemptBatcher(practiceOn());
    const extra: number[] = [];
    await Promise.all(deliveries.map((d, i) => batcher.record(outcome(d, i === 4 ? 500 : 200), async () => void extra.push(d.id))));
    expect(transactions).toBe(1);
    expect(extra.sort()).toEqual(deliveries.map((d) => d.id).sort());
    const stored = await Promise.all(deliveries.map((d) => storage.repositories.webhooks.findDeliveryById(d.id)));
    expect(stored.map((d) => d?.status)).toEqual(["delivered", "delivered", "delivered", "delivered", "pending"]);
    expect((await storage.repositories.webhooks.attempts(deliveries[4]!.id)).map((a) => a.statusCode)).toEqual([500]);
    // The failed one is queued for its next attempt, 15 s later.
    const next = await storage.repositories.jobs.claim("webhooks.deliver", { limit: 10, now: new Date(T0.getTime() + 15_000), leaseMs: 1000, leaseToken: "t" });
    expect(next.map((j) => j.payload)).toEqual([{ deliveryId: deliveries[4]!.id }]);
  });

  it("splits at maxBatch, and a failing transaction rejects every attempt in it and stores none", async () => {
    const batcher = new WebhookAttemptBatcher(practiceOn(), 2);
    await Promise.all(deliveries.slice(0, 4).map((d) => batcher.record(outcome(d, 200), async () => undefined)));
    expect(transactions).toBe(2);
    const failing = new WebhookAttemptBatcher(practiceOn());
    const results = await Promise.allSettled([failing.record(outcome(deliveries[4]!, 200), async () => undefined), failing.record(outcome(deliveries[4]!, 200), async () => Promise.reject(new Error("job lost")))]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect(await storage.repositories.webhooks.attempts(deliveries[4]!.id)).toEqual([]);
    expect((await storage.repositories.webhooks.findDeliveryById(deliveries[4]!.id))?.status).toBe("pending");
  });
});
