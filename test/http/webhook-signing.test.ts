import { createHmac } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines } from "../support/engines.js";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";
import { WebhookReceiver } from "../support/webhook-receiver.js";

const BASE = "/apis/v1/webhooks";

/** Every v1 of an X-Service-Signature header, checked with node:crypto alone: which keys signed the body. */
function signedBy(keys: string[], header: string | undefined, body: string): boolean[] {
  const match = /^t=(\d+)((?:,v1=[0-9a-f]{64})+)$/.exec(header ?? "");
  if (!match) return keys.map(() => false);
  const macs = (match[2] as string).split(",v1=").slice(1);
  return keys.map((key) => macs.includes(createHmac("sha256", key).update(`${match[1]}.${body}`).digest("hex")));
}

// Key rotation with a grace period and the Standard Webhooks format, on every engine this run has.
for (const engine of availableEngines()) {
  describe(`[${engine}] webhook signing: rotation grace and Standard Webhooks`, () => {
    let rt: TestRuntime;
    let receiver: WebhookReceiver;
    const json = async (method: string, path: string, body?: unknown) => {
      const res = await rt.call(method, path, body === undefined ? {} : { body });
      return { status: res.status, body: await res.json() };
    };
    const create = (over: Record<string, unknown> = {}) =>
      json("POST", `${BASE}/subscriptions`, {
        name: "Signing",
        event_types: ["patient.created"],
        notification_url: `${receiver.url}/hooks/${Math.random()}`,
        ...over,
      });
    /** Sends a test delivery and returns what the receiver got. */
    const testDelivery = async (id: string) => {
      const sent = await json("POST", `${BASE}/subscriptions/${id}/test`);
      expect(sent.status).toBe(200);
      return receiver.received.find((r) => r.json.event_id === sent.body.payload.event_id)!;
    };

    beforeAll(async () => {
      receiver = await new WebhookReceiver().start();
      rt = await startTestRuntime({ OPENPRACTICE_PLAN_LIMITS: '{"free":100000}' }, { engine });
    });
    afterAll(async () => {
      await rt.stop();
      await receiver.stop();
    });

    it("a rotation with a grace period signs with both keys until it ends; without one the old key stops at once", async () => {
      const created = (await create()).body;
      const id = created.subscription.id;
      const first = created.signature_key;
      const rotated = await json("POST", `${BASE}/subscriptions/${id}/rotate-secret`, { grace_period_seconds: 3600 });
      expect(rotated.status).toBe(200);
      const second = rotated.body.signature_key;
      const until = Date.parse(rotated.body.subscription.previous_key_expires_at);
      expect(until - Date.now()).toBeGreaterThan(3590_000);
      const overlap = await testDelivery(id);
      expect(signedBy([second, first], overlap.headers["x-service-signature"] as string, overlap.body)).toEqual([
        true,
        true,
      ]);
      // A rotation without a body follows spec rule 5: the previous keys are invalid at once.
      const third = (await json("POST", `${BASE}/subscriptions/${id}/rotate-secret`)).body;
      expect(third.subscription.previous_key_expires_at).toBeNull();
      const after = await testDelivery(id);
      expect(
        signedBy([third.signature_key, second, first], after.headers["x-service-signature"] as string, after.body),
      ).toEqual([true, false, false]);
      const bad = await json("POST", `${BASE}/subscriptions/${id}/rotate-secret`, { grace_period_seconds: -1 });
      expect(bad.status).toBe(400);
      expect(bad.body.error.details.errors[0]).toMatchObject({ field: "grace_period_seconds" });
    });

    it("a Standard Webhooks subscription's deliveries verify with the standardwebhooks library", async () => {
      const created = await create({ signature_format: "standard" });
      expect(created.status).toBe(201);
      expect(created.body.subscription.signature_format).toBe("standard");
      expect(created.body.standard_webhooks_secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
      const got = await testDelivery(created.body.subscription.id);
      expect(got.headers).not.toHaveProperty("x-service-signature");
      expect(got.headers["webhook-id"]).toBe(got.json.event_id);
      const verified = new Webhook(created.body.standard_webhooks_secret).verify(got.body, {
        "webhook-id": got.headers["webhook-id"] as string,
        "webhook-timestamp": got.headers["webhook-timestamp"] as string,
        "webhook-signature": got.headers["webhook-signature"] as string,
      });
      expect(verified).toMatchObject({ event_id: got.json.event_id, test: true });
      // Another secret does not verify it.
      const other = await create({ signature_format: "standard" });
      expect(() =>
        new Webhook(other.body.standard_webhooks_secret).verify(got.body, {
          "webhook-id": got.headers["webhook-id"] as string,
          "webhook-timestamp": got.headers["webhook-timestamp"] as string,
          "webhook-signature": got.headers["webhook-signature"] as string,
        }),
      ).toThrow();
      // During a rotation's grace period both secrets verify the same delivery.
      const rotated = await json("POST", `${BASE}/subscriptions/${created.body.subscription.id}/rotate-secret`, {
        grace_period_seconds: 600,
      });
      const overlap = await testDelivery(created.body.subscription.id);
      const headers = {
        "webhook-id": overlap.headers["webhook-id"] as string,
        "webhook-timestamp": overlap.headers["webhook-timestamp"] as string,
        "webhook-signature": overlap.headers["webhook-signature"] as string,
      };
      expect(headers["webhook-signature"].split(" ")).toHaveLength(2);
      for (const secret of [created.body.standard_webhooks_secret, rotated.body.standard_webhooks_secret])
        expect(new Webhook(secret).verify(overlap.body, headers)).toMatchObject({ test: true });
    });

    it("switches a subscription's format with PATCH and refuses an unknown one, naming the field", async () => {
      const created = (await create()).body;
      const patched = await json("PATCH", `${BASE}/subscriptions/${created.subscription.id}`, {
        signature_format: "standard",
      });
      expect(patched.body.signature_format).toBe("standard");
      const got = await testDelivery(created.subscription.id);
      expect(got.headers).toHaveProperty("webhook-signature");
      const bad = await create({ signature_format: "svix" });
      expect(bad.status).toBe(400);
      expect(bad.body.error.details.errors[0]).toMatchObject({ field: "signature_format" });
    });
  });
}
