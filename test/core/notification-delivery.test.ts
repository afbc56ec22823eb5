import { createECDH, randomBytes } from "node:crypto";
import {
  createPractice,
  type Practice,
  type Principal,
  type PushSendResult,
  type PushTransport,
} from "@openpractice/core";
import { MemoryStorage } from "@openpractice/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { testPracticeKeys } from "../support/practice-keys.js";

const principal: Principal = {
  organisationId: 1,
  userId: 101,
  name: null,
  scopes: ["write"],
  clinicIds: [],
  roles: [],
};
const keys = () => {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  return { p256dh: ecdh.getPublicKey("base64url"), auth: randomBytes(16).toString("base64url") };
};

/** A transport that answers from a script per endpoint and records what it was asked to send. */
function scriptedTransport(
  answers: Record<string, number[]>,
): PushTransport & { sent: Array<{ endpoint: string; payload: string }> } {
  const sent: Array<{ endpoint: string; payload: string }> = [];
  return {
    vapidPublicKey: "B-test",
    sent,
    async send(target, payloadJson): Promise<PushSendResult> {
      sent.push({ endpoint: target.endpoint, payload: payloadJson });
      const statusCode = answers[target.endpoint]?.shift() ?? 201;
      return {
        statusCode,
        retryAfterSeconds: null,
        durationMs: 1,
        error: statusCode < 300 ? null : `push service answered ${statusCode}`,
      };
    },
  };
}

// The delivery steps the job composes, run by hand against the memory storage: what a crash-and-rerun or a moved device does.
describe("notification delivery steps", () => {
  let practice: Practice;
  let transport: ReturnType<typeof scriptedTransport>;
  const device = async (endpoint: string, userId = "42") =>
    (await practice.pushDevices.register(principal, { userType: "PATIENT", userId, endpoint, keys: keys() })).device;

  beforeEach(async () => {
    transport = scriptedTransport({ "https://push.example.org/flaky": [503] });
    practice = createPractice({
      keys: testPracticeKeys(),
      storage: new MemoryStorage(),
      pushTransport: transport,
    });
  });
  afterEach(async () => {
    await practice.storage.close();
  });

  it("a delivery job run again after a crash sends only what had not settled, and finishes once", async () => {
    const steady = await device("https://push.example.org/steady");
    const flaky = await device("https://push.example.org/flaky");
    const { notificationId } = await practice.notifications.deliver(principal, {
      recipient: { userType: "PATIENT", userId: "42" },
      title: "Moved",
    });
    expect((await practice.notificationDeliveries.prepare(notificationId)).sort()).toEqual(
      [steady.id, flaky.id].sort(),
    );
    expect((await practice.notificationDeliveries.attempt(notificationId, steady.id)).outcome).toBe("delivered");
    expect((await practice.notificationDeliveries.attempt(notificationId, flaky.id)).outcome).toBe("retry");
    // The process dies here; the job is claimed again.
    expect(await practice.notificationDeliveries.prepare(notificationId)).toEqual([flaky.id]);
    expect((await practice.notificationDeliveries.attempt(notificationId, steady.id)).outcome).toBe("settled");
    expect((await practice.notificationDeliveries.attempt(notificationId, flaky.id)).outcome).toBe("delivered");
    expect(transport.sent.map((s) => s.endpoint)).toEqual([
      "https://push.example.org/steady",
      "https://push.example.org/flaky",
      "https://push.example.org/flaky",
    ]);
    expect(await practice.notificationDeliveries.finish(notificationId)).toBe("delivered");
    expect(await practice.notificationDeliveries.prepare(notificationId)).toEqual([]);
    expect(await practice.notificationDeliveries.finish(notificationId)).toBeUndefined();
    const { pushes } = await practice.notifications.get(principal, notificationId);
    expect(pushes.find((p) => p.push.deviceId === flaky.id)?.attempts.map((a) => [a.attempt, a.outcome])).toEqual([
      [1, "retry"],
      [2, "delivered"],
    ]);
  });

  it("a browser that another user registered since the push was prepared is not sent this user's message", async () => {
    const shared = await device("https://push.example.org/shared-pc");
    const { notificationId } = await practice.notifications.deliver(principal, {
      recipient: { userType: "PATIENT", userId: "42" },
      title: "For 42 only",
    });
    await practice.notificationDeliveries.prepare(notificationId);
    expect((await device("https://push.example.org/shared-pc", "77")).id).toBe(shared.id);
    expect(await practice.notificationDeliveries.attempt(notificationId, shared.id)).toMatchObject({
      outcome: "rejected",
      error: "the device now belongs to another user: not sent",
    });
    expect(transport.sent).toEqual([]);
    expect(await practice.notificationDeliveries.finish(notificationId)).toBe("failed");
  });

  it("without a push transport, pushes fail at once and the inbox entry is still there", async () => {
    const bare = createPractice({ keys: testPracticeKeys(), storage: practice.storage });
    await device("https://push.example.org/any");
    const { notificationId } = await bare.notifications.deliver(principal, {
      recipient: { userType: "patient", userId: 42 },
      title: "Inbox only",
    });
    const [deviceId] = await bare.notificationDeliveries.prepare(notificationId);
    expect(await bare.notificationDeliveries.attempt(notificationId, deviceId!)).toMatchObject({
      outcome: "rejected",
      error: "no push transport configured",
    });
    expect(await bare.notificationDeliveries.finish(notificationId)).toBe("failed");
    expect(
      (await bare.notifications.inbox(principal, { userType: "PATIENT", userId: "42" }, {})).entries.map(
        (e) => e.title,
      ),
    ).toEqual(["Inbox only"]);
    expect(() => bare.notifications.vapidPublicKey()).toThrow(expect.objectContaining({ code: "PUSH_NOT_CONFIGURED" }));
  });
});
