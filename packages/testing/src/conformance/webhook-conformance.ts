import type { Storage, StoredSubscription, WebhookDelivery } from "@openpractice/core";
import { beforeEach, describe, expect, it } from "vitest";
import type { StorageFixture } from "./storage-fixture.js";

const T0 = new Date("2026-07-01T09:00:00.000Z");

/** The webhook part of the storage contract: subscriptions, the organisation lock, deliveries unique per event, attempts, and the outbox hand-off. */
export function describeWebhookConformance(engine: string, current: () => { s: Storage; fx: StorageFixture }): void {
  describe("webhooks", () => {
    let s: Storage;
    const subscription = (over: Partial<StoredSubscription> = {}): Omit<StoredSubscription, "id"> => ({
      organisationId: 1,
      name: "sync",
      eventTypes: ["patient.created", "case.updated"],
      notificationUrl: "https://example.org/hook",
      apiVersion: "2026-06-11",
      isActive: true,
      encryptedKey: "v1.sealed",
      previousEncryptedKey: null,
      previousKeyExpiresAt: null,
      signatureFormat: "service",
      createdAt: T0,
      updatedAt: T0,
      ...over,
    });
    const delivery = (subscriptionId: number, outboxId: number | null): Omit<WebhookDelivery, "id"> => ({
      organisationId: 1,
      subscriptionId,
      outboxId,
      eventId: `evt_${subscriptionId}_${outboxId}_${Math.random()}`,
      eventType: "patient.created",
      apiVersion: "2026-06-11",
      data: { organisation_id: 1, patient_id: 3 },
      status: "pending",
      attempts: 0,
      nextAttemptAt: T0,
      lastStatusCode: null,
      createdAt: T0,
      updatedAt: T0,
    });

    beforeEach(() => {
      ({ s } = current());
    });

    it(`[${engine}] subscriptions round-trip, filter by activity, update, delete; scoped to the organisation`, async () => {
      const a = await s.repositories.webhooks.insertSubscription(subscription());
      const b = await s.repositories.webhooks.insertSubscription(subscription({ isActive: false, name: "off" }));
      expect(await s.repositories.webhooks.findSubscription(1, a.id)).toEqual(a);
      expect(await s.repositories.webhooks.findSubscription(2, a.id)).toBeUndefined();
      expect((await s.repositories.webhooks.listSubscriptions(1, { isActive: false })).map((x) => x.id)).toEqual([
        b.id,
      ]);
      await s.repositories.webhooks.updateSubscription({
        ...a,
        eventTypes: ["case.updated"],
        encryptedKey: "v1.other",
      });
      expect(await s.repositories.webhooks.findSubscription(1, a.id)).toMatchObject({
        eventTypes: ["case.updated"],
        encryptedKey: "v1.other",
      });
      expect(await s.repositories.webhooks.deleteSubscription(2, a.id)).toBe(false);
      expect(await s.repositories.webhooks.deleteSubscription(1, a.id)).toBe(true);
      expect(await s.repositories.webhooks.findSubscription(1, a.id)).toBeUndefined();
    });

    it(`[${engine}] subscribersOf: active subscriptions of active organisations that take the event`, async () => {
      const on = await s.repositories.webhooks.insertSubscription(subscription());
      await s.repositories.webhooks.insertSubscription(subscription({ isActive: false }));
      await s.repositories.webhooks.insertSubscription(subscription({ eventTypes: ["case.updated"] }));
      expect((await s.repositories.webhooks.subscribersOf(1, "patient.created")).map((x) => x.id)).toEqual([on.id]);
      await s.repositories.organisations.updateProfile(1, { isActive: false }, T0);
      expect(await s.repositories.organisations.findById(1)).toMatchObject({ isActive: false, name: "Org one" });
      expect(await s.repositories.webhooks.subscribersOf(1, "patient.created")).toEqual([]);
    });

    const insertOne = async (d: Omit<WebhookDelivery, "id">) =>
      (await s.repositories.webhooks.insertDeliveries([d]))[0];

    it(`[${engine}] one delivery per subscription and event, even from 10 concurrent fan-outs; attempts in order`, async () => {
      const sub = await s.repositories.webhooks.insertSubscription(subscription());
      const results = await Promise.all(Array.from({ length: 10 }, () => insertOne(delivery(sub.id, 7))));
      expect(results.filter(Boolean)).toHaveLength(1);
      const d = results.find(Boolean)!;
      expect(await s.repositories.webhooks.findDelivery(1, d.id)).toEqual(d);
      expect(await s.repositories.webhooks.findDelivery(2, d.id)).toBeUndefined();
      for (const attempt of [1, 2]) {
        await s.repositories.webhooks.appendAttempts([
          {
            deliveryId: d.id,
            attempt,
            attemptId: `a${attempt}`,
            at: T0,
            statusCode: 500,
            durationMs: 12,
            error: null,
            responseExcerpt: "x".repeat(100),
          },
        ]);
      }
      expect((await s.repositories.webhooks.attempts(d.id)).map((a) => a.attemptId)).toEqual(["a1", "a2"]);
      await s.repositories.webhooks.appendAttempts([]);
      await s.repositories.webhooks.appendAttempts(
        [3, 4].map((attempt) => ({
          deliveryId: d.id,
          attempt,
          attemptId: `a${attempt}`,
          at: T0,
          statusCode: null,
          durationMs: 10_000,
          error: "timeout",
          responseExcerpt: null,
        })),
      );
      const four = await s.repositories.webhooks.attempts(d.id);
      expect(four.map((a) => a.attemptId)).toEqual(["a1", "a2", "a3", "a4"]);
      expect(four[3]).toMatchObject({ attempt: 4, statusCode: null, error: "timeout", durationMs: 10_000 });
      await s.repositories.webhooks.updateDeliveries([
        { ...d, status: "failed", attempts: 2, nextAttemptAt: null, lastStatusCode: 500 },
      ]);
      const listed = await s.repositories.webhooks.listDeliveries(1, sub.id, {
        status: "failed",
        limit: 10,
        offset: 0,
      });
      expect(listed).toMatchObject({
        total: 1,
        deliveries: [{ id: d.id, status: "failed", attempts: 2, lastStatusCode: 500, nextAttemptAt: null }],
      });
    });

    it(`[${engine}] insertDeliveries writes a batch, skips (subscription, event) pairs that already have one, and returns the new ones with ids in order`, async () => {
      const a = await s.repositories.webhooks.insertSubscription(subscription());
      const b = await s.repositories.webhooks.insertSubscription(
        subscription({ notificationUrl: "https://example.org/b" }),
      );
      const earlier = await insertOne(delivery(a.id, 21));
      const batch = [
        delivery(a.id, 20),
        delivery(a.id, 21),
        delivery(b.id, 20),
        delivery(b.id, 21),
        ...Array.from({ length: 230 }, (_, i) => delivery(b.id, 100 + i)),
      ];
      const inserted = await s.transaction((tx) => tx.webhooks.insertDeliveries(batch));
      expect(inserted.map((d) => d.eventId)).toEqual(batch.filter((_, i) => i !== 1).map((d) => d.eventId));
      expect(new Set(inserted.map((d) => d.id)).size).toBe(inserted.length);
      for (const d of [inserted[0]!, inserted[2]!, inserted.at(-1)!])
        expect(await s.repositories.webhooks.findDelivery(1, d.id)).toEqual(d);
      expect((await s.repositories.webhooks.findDelivery(1, earlier!.id))?.eventId).toBe(earlier!.eventId);
      expect(await s.repositories.webhooks.insertDeliveries([])).toEqual([]);
    });

    it(`[${engine}] findDeliveriesForAttempt reads many deliveries with their subscriptions, without one once it is deleted, and leaves out unknown ids`, async () => {
      const sub = await s.repositories.webhooks.insertSubscription(subscription());
      const other = await s.repositories.webhooks.insertSubscription(
        subscription({ notificationUrl: "https://example.org/other" }),
      );
      const d = (await insertOne(delivery(sub.id, 30)))!;
      const e = (await insertOne(delivery(other.id, 31)))!;
      const found = await s.repositories.webhooks.findDeliveriesForAttempt([d.id, e.id, d.id + 100_000]);
      expect([...found.keys()].sort((x, y) => x - y)).toEqual([d.id, e.id].sort((x, y) => x - y));
      expect(found.get(d.id)).toEqual({ delivery: d, subscription: sub });
      expect(found.get(e.id)).toEqual({ delivery: e, subscription: other });
      await s.repositories.webhooks.deleteSubscription(1, sub.id);
      expect((await s.repositories.webhooks.findDeliveriesForAttempt([d.id])).get(d.id)).toEqual({
        delivery: d,
        subscription: undefined,
      });
      expect((await s.repositories.webhooks.findDeliveriesForAttempt([])).size).toBe(0);
    });

    it(`[${engine}] updateDeliveries writes each delivery's own values, alike or not, and leaves the others alone`, async () => {
      const sub = await s.repositories.webhooks.insertSubscription(subscription());
      const ds = await s.transaction((tx) =>
        tx.webhooks.insertDeliveries(Array.from({ length: 4 }, (_, i) => delivery(sub.id, 40 + i))),
      );
      const later = new Date(T0.getTime() + 60_000);
      const retryAt = new Date(T0.getTime() + 15_000);
      await s.repositories.webhooks.updateDeliveries([
        { ...ds[0]!, status: "delivered", attempts: 1, nextAttemptAt: null, lastStatusCode: 200, updatedAt: later },
        { ...ds[1]!, status: "delivered", attempts: 1, nextAttemptAt: null, lastStatusCode: 200, updatedAt: later },
        { ...ds[2]!, status: "pending", attempts: 1, nextAttemptAt: retryAt, lastStatusCode: 503, updatedAt: later },
      ]);
      const read = await Promise.all(ds.map((d) => s.repositories.webhooks.findDelivery(1, d.id)));
      expect(
        read.map((d) => [d?.status, d?.attempts, d?.lastStatusCode, d?.nextAttemptAt?.toISOString() ?? null]),
      ).toEqual([
        ["delivered", 1, 200, null],
        ["delivered", 1, 200, null],
        ["pending", 1, 503, retryAt.toISOString()],
        ["pending", 0, null, T0.toISOString()],
      ]);
      expect(read[0]!.updatedAt).toEqual(later);
      expect(read[3]).toEqual(ds[3]);
      await s.repositories.webhooks.updateDeliveries([]);
    });

    it(`[${engine}] markDispatched takes events out of listPending`, async () => {
      await s.repositories.outbox.append({
        organisationId: 1,
        eventType: "patient.created",
        data: { organisation_id: 1, patient_id: 1 },
        occurredAt: T0,
      });
      await s.repositories.outbox.append({
        organisationId: 1,
        eventType: "patient.created",
        data: { organisation_id: 1, patient_id: 2 },
        occurredAt: T0,
      });
      const [first] = await s.repositories.outbox.listPending(10);
      await s.repositories.outbox.markDispatched([first!.id], T0);
      expect(
        (await s.repositories.outbox.listPending(10)).map((e) => (e.data as { patient_id?: unknown }).patient_id),
      ).toEqual([2]);
    });

    it(`[${engine}] lockOrganisation reports whether the organisation exists`, async () => {
      expect(await s.transaction((tx) => tx.webhooks.lockOrganisation(1))).toBe(true);
      expect(await s.transaction((tx) => tx.webhooks.lockOrganisation(999))).toBe(false);
    });
  });
}
