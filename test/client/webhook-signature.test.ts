import { verifyWebhook } from "@openpractice/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";
import { WebhookReceiver } from "../support/webhook-receiver.js";

// The client's check (Web Crypto) against deliveries the runtime really sent (signed by core with node:crypto).
describe("@openpractice/client verifyWebhook on real deliveries", () => {
  let rt: TestRuntime;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    rt = await startTestRuntime({ OPENPRACTICE_WORKER_POLL_MS: "50", OPENPRACTICE_PLAN_LIMITS: '{"free":100000}' });
  });
  afterAll(async () => {
    await rt.stop();
    await receiver.stop();
  });

  const subscribe = async (path: string, format?: "standard") =>
    (
      await rt.call("POST", "/apis/v1/webhooks/subscriptions", {
        body: {
          name: path,
          event_types: ["patient.created"],
          notification_url: `${receiver.url}/${path}`,
          ...(format ? { signature_format: format } : {}),
        },
      })
    ).json() as Promise<{ subscription: { id: string }; signature_key: string }>;

  it("accepts both formats with the right key, and refuses a changed body, another key, an old delivery", async () => {
    const service = await subscribe("service");
    const standard = await subscribe("standard", "standard");
    await rt.call("POST", "/apis/v1/patient", {
      body: { first_name: "Signed", last_name: "Twice", date_of_birth: "1980-05-05" },
    });
    const received = await receiver.waitFor((r) => r.length >= 2);
    const byPath = (p: string) => received.find((r) => r.path === `/${p}`)!;
    const cases = [
      { delivery: byPath("service"), key: service.signature_key, format: "service" },
      { delivery: byPath("standard"), key: standard.signature_key, format: "standard" },
    ];
    for (const { delivery, key, format } of cases) {
      const headers = delivery.headers as Record<string, string>;
      expect(await verifyWebhook({ body: delivery.body, headers, signatureKey: key })).toEqual({ ok: true, format });
      // Bytes as received work as well as text.
      expect(
        (await verifyWebhook({ body: new TextEncoder().encode(delivery.body), headers, signatureKey: key })).ok,
      ).toBe(true);
      // Any one of the keys a receiver holds during its own roll.
      expect((await verifyWebhook({ body: delivery.body, headers, signatureKey: ["0".repeat(128), key] })).ok).toBe(
        true,
      );
      // Events carry identifiers only: change one.
      const tampered = delivery.body.replace(/"organisation_id":\s*"?1"?/, (m) => m.replace("1", "2"));
      expect(tampered).not.toBe(delivery.body);
      expect(await verifyWebhook({ body: tampered, headers, signatureKey: key })).toEqual({
        ok: false,
        reason: "no v1 signature matches the key",
      });
      const otherKey = format === "service" ? standard.signature_key : service.signature_key;
      expect((await verifyWebhook({ body: delivery.body, headers, signatureKey: otherKey })).ok).toBe(false);
      const later = new Date(Date.now() + 10 * 60_000);
      expect(await verifyWebhook({ body: delivery.body, headers, signatureKey: key, now: later })).toEqual({
        ok: false,
        reason: "the signed time is outside the tolerance",
      });
    }
    expect((await verifyWebhook({ body: "{}", headers: {}, signatureKey: service.signature_key })).ok).toBe(false);
  });

  it("accepts either signature while the server rotates with a grace period", async () => {
    const created = await subscribe("rolling");
    const rotated = await (
      await rt.call("POST", `/apis/v1/webhooks/subscriptions/${created.subscription.id}/rotate-secret`, {
        body: { grace_period_seconds: 3600 },
      })
    ).json();
    const before = receiver.received.length;
    await rt.call("POST", "/apis/v1/patient", {
      body: { first_name: "Rolling", last_name: "Keys", date_of_birth: "1981-06-06" },
    });
    const delivery = (await receiver.waitFor((r) => r.slice(before).some((x) => x.path === "/rolling")))
      .slice(before)
      .find((x) => x.path === "/rolling")!;
    const headers = delivery.headers as Record<string, string>;
    expect(headers["x-service-signature"]?.split(",v1=")).toHaveLength(3);
    for (const key of [created.signature_key, rotated.signature_key])
      expect((await verifyWebhook({ body: delivery.body, headers, signatureKey: key })).ok).toBe(true);
  });
});
