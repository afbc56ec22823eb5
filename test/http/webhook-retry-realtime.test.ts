import { verifyWebhook } from "@openpractice/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";
import { WebhookReceiver } from "../support/webhook-receiver.js";

// Real time, one engine: the second attempt comes 15 s after a failed first one (spec 6.4), within 2 s.
describe("webhook retry in real time", () => {
  let rt: TestRuntime;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    rt = await startTestRuntime({ OPENPRACTICE_WORKER_POLL_MS: "100" });
  });
  afterAll(async () => {
    await rt.stop();
    await receiver.stop();
  });

  it("retries a failed delivery 15 s later with the same event_id, signed with the key current at that moment", {
    timeout: 40_000,
  }, async () => {
    const created = await (
      await rt.call("POST", "/apis/v1/webhooks/subscriptions", {
        body: { name: "rt", event_types: ["patient.created"], notification_url: `${receiver.url}/rt` },
      })
    ).json();
    receiver.respondWith(503);
    await rt.call("POST", "/apis/v1/patient", {
      body: { first_name: "Retry", last_name: "Later", date_of_birth: "1990-01-01" },
    });
    await receiver.waitFor((r) => r.length >= 1, 10_000);
    // Rotate between the attempts: the retry must be signed with the new key (spec 4.4 rule 5).
    const rotated = await (
      await rt.call("POST", `/apis/v1/webhooks/subscriptions/${created.subscription.id}/rotate-secret`)
    ).json();
    const [first, second] = await receiver.waitFor((r) => r.length >= 2, 25_000);
    const gap = second!.at - first!.at;
    expect(gap).toBeGreaterThanOrEqual(15_000 - 2_000);
    expect(gap).toBeLessThanOrEqual(15_000 + 2_000);
    expect(second!.json.event_id).toBe(first!.json.event_id);
    expect(verifyWebhook(first!.body, first!.headers["x-service-signature"] as string, created.signature_key)).toBe(
      true,
    );
    expect(verifyWebhook(second!.body, second!.headers["x-service-signature"] as string, rotated.signature_key)).toBe(
      true,
    );
    expect(verifyWebhook(second!.body, second!.headers["x-service-signature"] as string, created.signature_key)).toBe(
      false,
    );
  });
});
