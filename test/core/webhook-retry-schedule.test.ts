import {
  AesGcmSecretCipher,
  createPractice,
  domainEvent,
  WEBHOOK_DELIVERY_QUEUE,
  WEBHOOK_RETRY_DELAYS_MS,
  type Practice,
  type Principal,
  type Storage,
} from "@openpractice/core";
import { createWebhookTransport } from "@openpractice/worker";
import { MemoryStorage } from "@openpractice/testing";
import { randomBytes } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WebhookReceiver } from "../support/webhook-receiver.js";
import { testPracticeKeys } from "../support/practice-keys.js";

const principal: Principal = { organisationId: 1, userId: 1, name: null, scopes: ["write"], clinicIds: [], roles: [] };

describe("webhook retry schedule on the Clock port (spec 6.4)", () => {
  let storage: Storage;
  let practice: Practice;
  let receiver: WebhookReceiver;
  let now: Date;

  beforeEach(async () => {
    storage = new MemoryStorage();
    receiver = await new WebhookReceiver().start();
    now = new Date("2026-06-01T12:00:00.000Z");
    practice = createPractice({
      storage,
      clock: { now: () => now },
      keys: { webhookSecretKey: randomBytes(32), vapid: null },
      webhookTransport: createWebhookTransport({ allowPrivate: true, allowedHosts: [] }),
      allowHttpWebhooks: true,
    });
  });
  afterEach(async () => {
    await receiver.stop();
    await storage.close();
  });

  /** Claims the due delivery jobs at the current clock time and runs them, as the job runner does. */
  async function runDue(): Promise<number> {
    const jobs = await storage.repositories.jobs.claim(WEBHOOK_DELIVERY_QUEUE, {
      limit: 10,
      now,
      leaseMs: 60_000,
      leaseToken: `t-${now.getTime()}`,
    });
    for (const job of jobs) {
      await practice.webhookDeliveries.attempt((job.payload as { deliveryId: number }).deliveryId);
      await storage.repositories.jobs.complete(job.id, job.leaseToken, now, "test");
    }
    return jobs.length;
  }

  async function emitOne(): Promise<number> {
    await storage.transaction(async (tx) => {
      await tx.organisations.ensure({ id: 1, name: "o", plan: "free", now });
      await tx.outbox.append(domainEvent("patient.created", { organisation_id: 1, patient_id: 42 }, now));
    });
    return practice.webhookDeliveries.fanOut();
  }

  it("walks all six attempts at 0, +15 s, +1 min, +10 min, +1 h, +6 h, then fails for good", async () => {
    await storage.repositories.organisations.ensure({ id: 1, name: "o", plan: "free", now });
    const { subscription } = await practice.webhooks.create(principal, {
      name: "s",
      eventTypes: ["patient.created"],
      notificationUrl: `${receiver.url}/fail`,
    });
    receiver.respondWith(500, 502, 503, 429, 500, 500);
    expect(await emitOne()).toBe(1);
    expect(await runDue(), "attempt 1 goes at once").toBe(1);
    const attemptTimes: number[] = [now.getTime()];
    for (let i = 1; i < WEBHOOK_RETRY_DELAYS_MS.length; i++) {
      now = new Date(now.getTime() + WEBHOOK_RETRY_DELAYS_MS[i]! - 1);
      expect(await runDue(), `attempt ${i + 1} must not run 1 ms early`).toBe(0);
      now = new Date(now.getTime() + 1);
      expect(await runDue(), `attempt ${i + 1}`).toBe(1);
      attemptTimes.push(now.getTime());
    }
    const gaps = attemptTimes.slice(1).map((t, i) => t - attemptTimes[i]!);
    expect(gaps).toEqual(WEBHOOK_RETRY_DELAYS_MS.slice(1));
    now = new Date(now.getTime() + 7 * 24 * 3600_000);
    expect(await runDue()).toBe(0);
    expect(receiver.received).toHaveLength(6);
    const { deliveries } = await practice.webhookDeliveries.list(principal, subscription.id, {});
    expect(deliveries[0]!.delivery).toMatchObject({
      status: "failed",
      attempts: 6,
      nextAttemptAt: null,
      lastStatusCode: 500,
    });
    expect(deliveries[0]!.attempts.map((a) => a.statusCode)).toEqual([500, 502, 503, 429, 500, 500]);
    // Every attempt carried the same event_id (the receiver's idempotency key) and its own X-Delivery-Id.
    expect(new Set(receiver.received.map((r) => r.json.event_id)).size).toBe(1);
    expect(new Set(receiver.received.map((r) => r.headers["x-delivery-id"])).size).toBe(6);
    // A manual retry starts a fresh schedule with the same event_id.
    await practice.webhookDeliveries.retry(principal, subscription.id, deliveries[0]!.delivery.id);
    expect(await runDue()).toBe(1);
    expect(receiver.received.at(-1)!.json.event_id).toBe(receiver.received[0]!.json.event_id);
    expect((await practice.webhookDeliveries.list(principal, subscription.id, { status: "delivered" })).total).toBe(1);
  });

  it("a redirect, a timeout-free network error and a 2xx: only the 2xx is success; attempts keep status, error and excerpt", async () => {
    await storage.repositories.organisations.ensure({ id: 1, name: "o", plan: "free", now });
    const { subscription } = await practice.webhooks.create(principal, {
      name: "s",
      eventTypes: ["patient.created"],
      notificationUrl: `${receiver.url}/r`,
    });
    receiver.respondWith(302);
    await emitOne();
    await runDue();
    now = new Date(now.getTime() + 15_000);
    await runDue();
    const { deliveries } = await practice.webhookDeliveries.list(principal, subscription.id, {});
    expect(deliveries[0]!.attempts.map((a) => [a.statusCode, a.responseExcerpt])).toEqual([
      [302, "nope 302"],
      [200, "thanks"],
    ]);
    expect(deliveries[0]!.delivery.status).toBe("delivered");
    await practice.webhooks.update(principal, subscription.id, { notificationUrl: "http://127.0.0.1:1/closed" });
    await emitOne();
    await runDue();
    const refused = (await practice.webhookDeliveries.list(principal, subscription.id, { status: "pending" }))
      .deliveries[0]!;
    expect(refused.attempts[0]).toMatchObject({ statusCode: null, error: expect.stringContaining("ECONNREFUSED") });
  });
});

describe("webhook transport", () => {
  it("counts no answer within the timeout as a failure (spec 6.3: 10 s; here 200 ms)", async () => {
    const slow = await new WebhookReceiver({ delayMs: 1500 }).start();
    try {
      const transport = createWebhookTransport({ allowPrivate: true, allowedHosts: [] });
      const r = await transport.post({ url: `${slow.url}/slow`, headers: {}, body: "{}", timeoutMs: 200 });
      expect(r).toMatchObject({ statusCode: null, error: "timeout after 200 ms" });
      expect(r.durationMs).toBeGreaterThanOrEqual(190);
      expect(r.durationMs).toBeLessThan(1400);
    } finally {
      await slow.stop();
    }
  });
});

describe("outbound address policy", () => {
  it("in production refuses loopback, private and link-local targets after resolution; the allowlist relaxes it", async () => {
    const receiver = await new WebhookReceiver().start();
    try {
      const strict = createWebhookTransport({ allowPrivate: false, allowedHosts: [] });
      const port = new URL(receiver.url).port;
      for (const url of [
        `http://127.0.0.1:${port}/x`,
        `http://localhost:${port}/x`,
        "http://169.254.169.254/latest/meta-data",
        "http://10.1.2.3/x",
        "http://[::1]:1/x",
      ]) {
        const r = await strict.post({ url, headers: {}, body: "{}", timeoutMs: 2000 });
        expect(r, url).toMatchObject({ statusCode: null, error: expect.stringContaining("refused") });
      }
      // IPv4 inside IPv6 (NAT64, 6to4, IPv4-compatible), benchmarking, multicast, reserved and site-local ranges.
      for (const [url, range] of [
        [`http://[64:ff9b::7f00:1]:${port}/x`, "rfc6052 → loopback"],
        [`http://[2002:a9fe:a9fe::1]:${port}/x`, "6to4 → linkLocal"],
        [`http://[::127.0.0.1]:${port}/x`, "ipv4Compatible → loopback"],
        ["http://198.18.0.1/x", "reserved"],
        ["http://224.0.0.1/x", "multicast"],
        ["http://240.0.0.1/x", "reserved"],
        ["http://[fec0::1]/x", "deprecatedSiteLocal"],
      ] as const) {
        const r = await strict.post({ url, headers: {}, body: "{}", timeoutMs: 2000 });
        expect(r, url).toMatchObject({
          statusCode: null,
          error: `refused: ${new URL(url).hostname} is not a public unicast address (${range})`,
        });
      }
      expect(receiver.received).toHaveLength(0);
      const allowed = createWebhookTransport({ allowPrivate: false, allowedHosts: ["localhost"] });
      expect(
        (await allowed.post({ url: `http://localhost:${port}/ok`, headers: {}, body: "{}", timeoutMs: 2000 }))
          .statusCode,
      ).toBe(200);
      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.stop();
    }
  });
});
