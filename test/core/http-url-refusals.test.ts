import { createECDH, randomBytes } from "node:crypto";
import { createPractice, DomainError, type PracticeOptions, type Principal } from "@openpractice/core";
import { MemoryStorage } from "@openpractice/testing";
import { describe, expect, it } from "vitest";

const principal: Principal = { organisationId: 1, userId: 1, name: null, scopes: ["write"], clinicIds: [], roles: [] };

/** The validation issues a refused call throws, as the API would list them. */
async function issuesOf(call: () => Promise<unknown>) {
  const error = await call().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return (error as DomainError).details.issues as { field: string; reason: string }[];
}

/** An http:// webhook and an http:// push endpoint, registered on a practice built with `options`. */
async function refusals(options: Partial<PracticeOptions> = {}) {
  const storage = new MemoryStorage();
  const practice = createPractice({ storage, keys: { webhookSecretKey: randomBytes(32), vapid: null }, ...options });
  await storage.repositories.organisations.ensure({ id: 1, name: "o", plan: "free", now: new Date() });
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const keys = { p256dh: ecdh.getPublicKey("base64url"), auth: randomBytes(16).toString("base64url") };
  try {
    return {
      webhook: await issuesOf(() =>
        practice.webhooks.create(principal, {
          name: "local receiver",
          eventTypes: ["patient.created"],
          notificationUrl: "http://127.0.0.1:9/hook",
        }),
      ),
      device: await issuesOf(() =>
        practice.pushDevices.register(principal, {
          userType: "PATIENT",
          userId: "9",
          endpoint: "http://127.0.0.1:9/push",
          keys,
        }),
      ),
    };
  } finally {
    await storage.close();
  }
}

describe("a refused http:// URL names the setting that accepts it, in the words of the host", () => {
  it("embedded: the createPractice options", async () => {
    expect(await refusals()).toEqual({
      webhook: [
        {
          field: "notificationUrl",
          reason: "must use https (http is accepted only with the createPractice option allowHttpWebhooks: true)",
          value: "http://127.0.0.1:9/hook",
        },
      ],
      device: [
        {
          field: "endpoint",
          reason: "must use https (http is accepted only with the createPractice option allowHttpPushEndpoints: true)",
          value: "http://127.0.0.1:9/push",
        },
      ],
    });
  });

  it("a host that sets them its own way names its own setting (the runtime: OPENPRACTICE_ENV)", async () => {
    const found = await refusals({
      settingNames: { allowHttpWebhooks: "WEBHOOKS_OVER_HTTP=1", allowHttpPushEndpoints: "PUSH_OVER_HTTP=1" },
    });
    expect(found.webhook[0]?.reason).toBe("must use https (http is accepted only with WEBHOOKS_OVER_HTTP=1)");
    expect(found.device[0]?.reason).toBe("must use https (http is accepted only with PUSH_OVER_HTTP=1)");
  });
});
