import { createECDH, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { DomainError } from "../kernel/domain-error.js";
import type { DevicePush } from "./notification.js";
import { assertValidDevice, assertValidNotification, pushPayload } from "./notification-rules.js";
import { classifyPush, summariseDelivery } from "./push-outcome.js";

const issuesOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return (error as DomainError).details.issues?.map((i) => i.field);
  }
  throw new Error("expected a DomainError");
};

describe("notification rules", () => {
  it("accepts PATIENT and PROVIDER in any case and integer user ids, trims the title, and drops empty optional texts", () => {
    expect(
      assertValidNotification({
        recipient: { userType: "provider", userId: 42 },
        title: "  Note awaits co-signature ",
        body: "",
        link: null,
      }),
    ).toEqual({
      recipient: { userType: "PROVIDER", userId: "42" },
      title: "Note awaits co-signature",
      body: null,
      link: null,
      idempotencyKey: null,
    });
  });

  it("names every problem at once", () => {
    expect(
      issuesOf(() =>
        assertValidNotification({ recipient: { userType: "nurse", userId: "" }, title: "", idempotencyKey: "" }),
      ),
    ).toEqual(["recipient.userType", "recipient.userId", "notification.title", "idempotencyKey"]);
    expect(
      issuesOf(() => assertValidNotification({ recipient: undefined as never, title: undefined as never })),
    ).toEqual(["recipient.userType", "recipient.userId", "notification.title"]);
  });

  it("keeps the push message within a push service's size limit, counted in UTF-8 bytes", () => {
    const fits = {
      recipient: { userType: "PATIENT", userId: "1" },
      title: "t",
      body: "a".repeat(1000),
      link: "a".repeat(1000),
    };
    expect(() => assertValidNotification(fits)).not.toThrow();
    expect(issuesOf(() => assertValidNotification({ ...fits, body: "€".repeat(1000) }))).toEqual(["notification.body"]);
    expect(
      Buffer.byteLength(pushPayload("ntf_x", { title: "t", body: "a".repeat(1000), link: "a".repeat(1000) })),
    ).toBeLessThan(3072);
  });

  it("takes a device only with keys that can encrypt: a P-256 point and a 16-byte secret", () => {
    const ecdh = createECDH("prime256v1");
    ecdh.generateKeys();
    const keys = { p256dh: ecdh.getPublicKey("base64url"), auth: randomBytes(16).toString("base64url") };
    const draft = { userType: "patient", userId: "9", endpoint: "https://push.example.org/x", keys };
    expect(assertValidDevice(draft, { allowHttp: false, httpSetting: "the option" })).toMatchObject({
      recipient: { userType: "PATIENT", userId: "9" },
      keys,
    });
    const offCurve = Buffer.from(ecdh.getPublicKey());
    offCurve[40] = offCurve[40]! ^ 1;
    expect(
      issuesOf(() =>
        assertValidDevice(
          { ...draft, keys: { p256dh: offCurve.toString("base64url"), auth: "AAAA" } },
          { allowHttp: false, httpSetting: "the option" },
        ),
      ),
    ).toEqual(["keys.p256dh", "keys.auth"]);
    expect(
      issuesOf(() =>
        assertValidDevice(
          { ...draft, endpoint: "http://push.example.org/x" },
          { allowHttp: false, httpSetting: "the option" },
        ),
      ),
    ).toEqual(["endpoint"]);
    expect(() =>
      assertValidDevice({ ...draft, endpoint: "http://127.0.0.1:9/x" }, { allowHttp: true, httpSetting: "the option" }),
    ).not.toThrow();
  });
});

describe("push outcomes", () => {
  const result = (statusCode: number | null, permanent = false) => ({
    statusCode,
    retryAfterSeconds: null,
    durationMs: 1,
    error: null,
    permanent,
  });

  it("sent on 2xx, gone on 404 and 410, retried on 429, 5xx and no answer, refused otherwise", () => {
    expect([200, 201, 202].map((s) => classifyPush(result(s)))).toEqual(["delivered", "delivered", "delivered"]);
    expect([404, 410].map((s) => classifyPush(result(s)))).toEqual(["expired", "expired"]);
    expect([429, 500, 502, 503, null].map((s) => classifyPush(result(s)))).toEqual([
      "retry",
      "retry",
      "retry",
      "retry",
      "retry",
    ]);
    expect([400, 401, 403, 413].map((s) => classifyPush(result(s)))).toEqual([
      "rejected",
      "rejected",
      "rejected",
      "rejected",
    ]);
    expect(classifyPush(result(null, true))).toBe("rejected");
  });

  it("sums a notification up from its pushes", () => {
    const p = (status: DevicePush["status"]) => ({ status }) as DevicePush;
    expect(summariseDelivery([])).toBe("no_devices");
    expect(summariseDelivery([p("delivered"), p("delivered")])).toBe("delivered");
    expect(summariseDelivery([p("delivered"), p("expired")])).toBe("partially_delivered");
    expect(summariseDelivery([p("failed"), p("expired")])).toBe("failed");
  });
});
