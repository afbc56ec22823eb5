import type { Device, DevicePush, Notification, Storage } from "@openpractice/core";
import { beforeEach, describe, expect, it } from "vitest";
import type { StorageFixture } from "./storage-fixture.js";

const T0 = new Date("2026-08-01T09:00:00.000Z");
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
const PATIENT_42 = { userType: "PATIENT" as const, userId: "42" };

/** The notification part of the storage contract: devices unique per endpoint, idempotency keys unique per organisation under concurrency, the inbox's paging and read marks, pushes and attempts. */
export function describeNotificationConformance(
  engine: string,
  current: () => { s: Storage; fx: StorageFixture },
): void {
  describe("notifications", () => {
    let s: Storage;
    let fx: StorageFixture;
    let seq = 0;
    const device = (over: Partial<Device> = {}): Device => ({
      id: `dev_${engine}_${++seq}`,
      organisationId: 1,
      ...PATIENT_42,
      endpoint: "https://push.example.org/send/abc",
      keys: { p256dh: "BPublicKey", auth: "authsecret" },
      label: "Firefox",
      createdAt: T0,
      updatedAt: T0,
      ...over,
    });
    const notification = (over: Partial<Notification> = {}): Notification => ({
      id: `ntf_${engine}_${++seq}`,
      organisationId: 1,
      ...PATIENT_42,
      title: "Your appointment moved",
      body: "Open the app for the new time",
      link: "type=appointment&appointment_id=7",
      idempotencyKey: null,
      deliveryStatus: "queued",
      readAt: null,
      createdAt: T0,
      updatedAt: T0,
      ...over,
    });
    const push = (notificationId: string, deviceId: string): DevicePush => ({
      notificationId,
      deviceId,
      organisationId: 1,
      pushService: "https://push.example.org",
      status: "pending",
      attempts: 0,
      lastStatusCode: null,
      error: null,
      createdAt: T0,
      updatedAt: T0,
    });

    beforeEach(() => {
      ({ s, fx } = current());
    });

    it(`[${engine}] a device re-registered with its endpoint keeps its id and takes the new user and keys; other organisations keep their own`, async () => {
      const first = await s.repositories.notifications.upsertDevice(device());
      expect(first).toEqual({ created: true, device: device({ id: first.device.id }) });
      const again = await s.repositories.notifications.upsertDevice(
        device({
          id: "dev_other",
          userId: "43",
          keys: { p256dh: "BNew", auth: "newauth" },
          label: null,
          updatedAt: at(5),
        }),
      );
      expect(again.created).toBe(false);
      expect(again.device).toMatchObject({
        id: first.device.id,
        userId: "43",
        keys: { p256dh: "BNew", auth: "newauth" },
        label: null,
        createdAt: T0,
        updatedAt: at(5),
      });
      expect(await s.repositories.notifications.listDevices(1, PATIENT_42)).toEqual([]);
      const elsewhere = await s.repositories.notifications.upsertDevice(device({ organisationId: 2, userId: "43" }));
      expect(elsewhere.created).toBe(true);
      expect(
        (await s.repositories.notifications.listDevices(1, { userType: "PATIENT", userId: "43" })).map((d) => d.id),
      ).toEqual([first.device.id]);
      expect(await s.repositories.notifications.findDevice(2, first.device.id)).toBeUndefined();
      expect(await s.repositories.notifications.deleteDevice(2, first.device.id)).toBe(false);
      expect(await s.repositories.notifications.deleteDevice(1, first.device.id)).toBe(true);
      expect(await s.repositories.notifications.findDevice(1, first.device.id)).toBeUndefined();
    });

    it(`[${engine}] one user has several devices, oldest first; user types are separate recipients`, async () => {
      const a = (await s.repositories.notifications.upsertDevice(device({ endpoint: "https://push.example.org/a" })))
        .device;
      const b = (
        await s.repositories.notifications.upsertDevice(
          device({ endpoint: "https://push.example.org/b", createdAt: at(1) }),
        )
      ).device;
      await s.repositories.notifications.upsertDevice(
        device({ endpoint: "https://push.example.org/c", userType: "PROVIDER" }),
      );
      expect((await s.repositories.notifications.listDevices(1, PATIENT_42)).map((d) => d.id)).toEqual([a.id, b.id]);
    });

    it(`[${engine}] 10 concurrent registrations of one endpoint leave one device`, async () => {
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => s.repositories.notifications.upsertDevice(device({ userId: `u${i}` }))),
      );
      expect(results.filter((r) => r.created)).toHaveLength(1);
      expect(new Set(results.map((r) => r.device.id)).size).toBe(1);
      expect(await fx.probe.devices(1)).toHaveLength(1);
    });

    it(`[${engine}] of 10 concurrent transactions inserting one idempotency key exactly one inserts, and every transaction stays usable`, async () => {
      const outcomes = await Promise.all(
        Array.from({ length: 10 }, () =>
          s.transaction(async (tx) => {
            const inserted = await tx.notifications.insertNotification(
              notification({ idempotencyKey: "appt-7-moved" }),
            );
            // A duplicate must not abort the transaction (PostgreSQL): the next statement still runs.
            await tx.jobs.enqueue({ queue: "conformance.noop", payload: {}, runAt: T0 });
            return inserted;
          }),
        ),
      );
      expect(outcomes.filter(Boolean)).toHaveLength(1);
      expect((await fx.probe.notifications()).filter((n) => n.idempotencyKey === "appt-7-moved")).toHaveLength(1);
      const found = await s.repositories.notifications.findByIdempotencyKey(1, "appt-7-moved");
      expect(found).toMatchObject({
        organisationId: 1,
        title: "Your appointment moved",
        idempotencyKey: "appt-7-moved",
      });
      expect(await s.repositories.notifications.findByIdempotencyKey(2, "appt-7-moved")).toBeUndefined();
      // The same key is free in another organisation; notifications without a key never clash.
      expect(
        await s.repositories.notifications.insertNotification(
          notification({ organisationId: 2, idempotencyKey: "appt-7-moved" }),
        ),
      ).toBe(true);
      expect(await s.repositories.notifications.insertNotification(notification())).toBe(true);
      expect(await s.repositories.notifications.insertNotification(notification())).toBe(true);
      expect(await fx.probe.notifications(1)).toHaveLength(3);
    });

    it(`[${engine}] the inbox pages newest first with totals and unread counts; reads are scoped and keep the first read time`, async () => {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const n = notification({ createdAt: at(i), updatedAt: at(i), title: `n${i}` });
        await s.repositories.notifications.insertNotification(n);
        ids.push(n.id);
      }
      await s.repositories.notifications.insertNotification(notification({ userId: "43" }));
      await s.repositories.notifications.insertNotification(notification({ organisationId: 2 }));
      const page1 = await s.repositories.notifications.listInbox(1, PATIENT_42, {
        unreadOnly: false,
        limit: 2,
        offset: 0,
      });
      expect(page1.entries.map((n) => n.title)).toEqual(["n4", "n3"]);
      expect(page1).toMatchObject({ total: 5, unread: 5 });
      expect(
        (
          await s.repositories.notifications.listInbox(1, PATIENT_42, { unreadOnly: false, limit: 2, offset: 4 })
        ).entries.map((n) => n.title),
      ).toEqual(["n0"]);

      expect(await s.repositories.notifications.markRead(2, ids[4]!, at(10))).toBeUndefined();
      expect(await s.repositories.notifications.markRead(1, ids[4]!, at(10))).toMatchObject({
        id: ids[4],
        readAt: at(10),
      });
      expect(await s.repositories.notifications.markRead(1, ids[4]!, at(20))).toMatchObject({ readAt: at(10) });
      const unread = await s.repositories.notifications.listInbox(1, PATIENT_42, {
        unreadOnly: true,
        limit: 10,
        offset: 0,
      });
      expect(unread.entries.map((n) => n.title)).toEqual(["n3", "n2", "n1", "n0"]);
      expect(unread).toMatchObject({ total: 4, unread: 4 });
      expect(await s.repositories.notifications.markAllRead(1, PATIENT_42, at(30))).toBe(4);
      expect(await s.repositories.notifications.markAllRead(1, PATIENT_42, at(31))).toBe(0);
      expect(
        (await s.repositories.notifications.listInbox(1, PATIENT_42, { unreadOnly: false, limit: 10, offset: 0 }))
          .unread,
      ).toBe(0);
      expect(
        (
          await s.repositories.notifications.listInbox(
            1,
            { userType: "PATIENT", userId: "43" },
            { unreadOnly: true, limit: 10, offset: 0 },
          )
        ).total,
      ).toBe(1);
      expect(await s.repositories.notifications.findNotification(2, ids[0]!)).toBeUndefined();
    });

    it(`[${engine}] one push per notification and device, however often inserted; attempts in order; the delivery status`, async () => {
      const n = notification();
      await s.repositories.notifications.insertNotification(n);
      await s.repositories.notifications.insertPush(push(n.id, "dev_a"));
      await s.repositories.notifications.insertPush(push(n.id, "dev_a"));
      await s.repositories.notifications.insertPush(push(n.id, "dev_b"));
      expect((await s.repositories.notifications.listPushes(n.id)).map((p) => p.deviceId).sort()).toEqual([
        "dev_a",
        "dev_b",
      ]);
      await s.repositories.notifications.updatePush({
        ...push(n.id, "dev_a"),
        status: "failed",
        attempts: 2,
        lastStatusCode: 503,
        error: "push service answered 503",
        updatedAt: at(1),
      });
      expect((await s.repositories.notifications.listPushes(n.id)).find((p) => p.deviceId === "dev_a")).toEqual({
        ...push(n.id, "dev_a"),
        status: "failed",
        attempts: 2,
        lastStatusCode: 503,
        error: "push service answered 503",
        updatedAt: at(1),
      });
      for (const attempt of [1, 2]) {
        await s.repositories.notifications.appendAttempt({
          notificationId: n.id,
          deviceId: "dev_a",
          attempt,
          at: at(attempt),
          statusCode: 429,
          retryAfterSeconds: 2,
          durationMs: 7,
          outcome: "retry",
          error: null,
        });
      }
      await s.repositories.notifications.appendAttempt({
        notificationId: n.id,
        deviceId: "dev_b",
        attempt: 1,
        at: at(3),
        statusCode: 201,
        retryAfterSeconds: null,
        durationMs: 5,
        outcome: "delivered",
        error: null,
      });
      const attempts = await s.repositories.notifications.attempts(n.id);
      expect(attempts.map((a) => [a.deviceId, a.attempt, a.outcome])).toEqual([
        ["dev_a", 1, "retry"],
        ["dev_a", 2, "retry"],
        ["dev_b", 1, "delivered"],
      ]);
      expect(attempts[0]).toEqual({
        notificationId: n.id,
        deviceId: "dev_a",
        attempt: 1,
        at: at(1),
        statusCode: 429,
        retryAfterSeconds: 2,
        durationMs: 7,
        outcome: "retry",
        error: null,
      });
      await s.repositories.notifications.setDeliveryStatus(n.id, "partially_delivered", at(4));
      expect(await s.repositories.notifications.findNotificationById(n.id)).toMatchObject({
        deliveryStatus: "partially_delivered",
        updatedAt: at(4),
      });
    });
  });
}
