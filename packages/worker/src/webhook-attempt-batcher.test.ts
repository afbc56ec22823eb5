import {
  AesGcmSecretCipher,
  createPractice,
  type AttemptOutcome,
  type Repositories,
  type Storage,
  type WebhookDelivery,
} from "@openpractice/core";
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
    storage = Object.assign(Object.create(storage), {
      transaction: (fn: (tx: Repositories) => Promise<unknown>) => ((transactions += 1), transaction(fn)),
    }) as Storage;
    const r = storage.repositories;
    await r.organisations.ensure({ id: 1, name: "o", plan: "free", now: T0 });
    const sub = await r.webhooks.insertSubscription({
      organisationId: 1,
      name: "s",
      eventTypes: ["patient.created"],
      notificationUrl: "https://example.org/h",
      apiVersion: "2026-06-11",
      isActive: true,
      encryptedKey: "v1.x",
      previousEncryptedKey: null,
      previousKeyExpiresAt: null,
      signatureFormat: "service",
      createdAt: T0,
      updatedAt: T0,
    });
    deliveries = await r.webhooks.insertDeliveries(
      Array.from({ length: 5 }, (_, i) => ({
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
  });
  afterEach(async () => {
    await storage.close();
  });

  const outcome = (d: WebhookDelivery, statusCode: number): AttemptOutcome => ({
    delivery: d,
    subscriptionLive: true,
    attemptId: `att-${d.id}`,
    result: { statusCode, durationMs: 3, error: null, responseExcerpt: "ok" },
    at: T0,
  });
  const practiceOn = () =>
    createPractice({ keys: { webhookSecretKey: randomBytes(32), vapid: null }, storage, clock: { now: () => T0 } });

  /** One queued job per delivery, claimed together (one lease token), as the job runner hands them out. */
  const claimJobs = async () => {
    await storage.repositories.jobs.enqueueMany(
      deliveries.map((d) => ({ queue: "webhooks.deliver", payload: { deliveryId: d.id }, runAt: T0 })),
    );
    return storage.repositories.jobs.claim("webhooks.deliver", {
      limit: 10,
      now: T0,
      leaseMs: 60_000,
      leaseToken: "lease-1",
    });
  };

  it("records attempts that finish in the same turn in one transaction, and completes their jobs in it", async () => {
    const batcher = new WebhookAttemptBatcher(practiceOn(), "worker-a");
    const jobs = await claimJobs();
    transactions = 0;
    await Promise.all(deliveries.map((d, i) => batcher.record(outcome(d, i === 4 ? 500 : 200), jobs[i]!)));
    expect(transactions).toBe(1);
    // Every job is done: claiming again long after the lease finds only the failed delivery's next attempt.
    const later = await storage.repositories.jobs.claim("webhooks.deliver", {
      limit: 10,
      now: new Date(T0.getTime() + 120_000),
      leaseMs: 1000,
      leaseToken: "t2",
    });
    expect(later.map((j) => j.payload)).toEqual([{ deliveryId: deliveries[4]!.id }]);
    const stored = await Promise.all(deliveries.map((d) => storage.repositories.webhooks.findDelivery(1, d.id)));
    expect(stored.map((d) => d?.status)).toEqual(["delivered", "delivered", "delivered", "delivered", "pending"]);
    expect((await storage.repositories.webhooks.attempts(deliveries[4]!.id)).map((a) => a.statusCode)).toEqual([500]);
  });

  it("completes only the jobs whose lease it still holds, and still records every attempt", async () => {
    const jobs = await claimJobs();
    const batcher = new WebhookAttemptBatcher(practiceOn(), "worker-a");
    // Job 0's lease token is stale (another worker took it over): it is not completed by this worker.
    await Promise.all(
      deliveries
        .slice(0, 2)
        .map((d, i) => batcher.record(outcome(d, 200), i === 0 ? { id: jobs[0]!.id, leaseToken: "stale" } : jobs[1]!)),
    );
    expect(
      await storage.repositories.jobs.completeMany([{ id: jobs[1]!.id, leaseToken: "lease-1" }], T0, "again"),
    ).toBe(0);
    expect(
      await storage.repositories.jobs.completeMany([{ id: jobs[0]!.id, leaseToken: "lease-1" }], T0, "owner"),
    ).toBe(1);
    expect((await storage.repositories.webhooks.attempts(deliveries[0]!.id)).length).toBe(1);
  });

  it("splits at maxBatch, and a failing transaction rejects every attempt in it and stores none", async () => {
    const jobs = await claimJobs();
    transactions = 0;
    const batcher = new WebhookAttemptBatcher(practiceOn(), "worker-a", 2);
    await Promise.all(deliveries.slice(0, 4).map((d, i) => batcher.record(outcome(d, 200), jobs[i]!)));
    expect(transactions).toBe(2);
    // The transaction fails at its last statement (completing the jobs): nothing of it may remain.
    const transaction = storage.transaction.bind(storage);
    storage = Object.assign(Object.create(storage), {
      transaction: (fn: (tx: Repositories) => Promise<unknown>) =>
        transaction((tx) =>
          fn({
            ...tx,
            jobs: Object.assign(Object.create(tx.jobs), { completeMany: () => Promise.reject(new Error("disk full")) }),
          }),
        ),
    }) as Storage;
    const failing = new WebhookAttemptBatcher(practiceOn(), "worker-a");
    const results = await Promise.allSettled([
      failing.record(outcome(deliveries[4]!, 200), jobs[4]!),
      failing.record(outcome(deliveries[4]!, 500), jobs[4]!),
    ]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect(await storage.repositories.webhooks.attempts(deliveries[4]!.id)).toEqual([]);
    expect((await storage.repositories.webhooks.findDelivery(1, deliveries[4]!.id))?.status).toBe("pending");
  });
});
