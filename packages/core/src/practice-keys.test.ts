import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { checkVapidKeys, PracticeConfigurationError, webhookCipherFromKey } from "./practice-keys.js";

describe("practice keys", () => {
  it("refuses a missing webhook key, naming the option and how to make one", () => {
    expect(() => webhookCipherFromKey(undefined)).toThrow(PracticeConfigurationError);
    expect(() => webhookCipherFromKey(undefined)).toThrow(/keys\.webhookSecretKey is required.*openssl rand -hex 32/);
    expect(() => webhookCipherFromKey("")).toThrow(/keys\.webhookSecretKey is required/);
  });

  it("refuses a key of the wrong length", () => {
    expect(() => webhookCipherFromKey(randomBytes(16))).toThrow(/must be 32 bytes.*got 16 bytes/);
    expect(() => webhookCipherFromKey("abcd")).toThrow(/must be 32 bytes/);
  });

  it("reads bytes, hex and base64 as the same key", () => {
    const key = randomBytes(32);
    const sealed = webhookCipherFromKey(key).encrypt("whsec_test");
    expect(webhookCipherFromKey(key.toString("hex")).decrypt(sealed)).toBe("whsec_test");
    expect(webhookCipherFromKey(key.toString("base64")).decrypt(sealed)).toBe("whsec_test");
    expect(() => webhookCipherFromKey(randomBytes(32)).decrypt(sealed)).toThrow();
  });

  it("wants a VAPID pair or an explicit null", () => {
    expect(() => checkVapidKeys(undefined)).toThrow(/keys\.vapid is required.*or null/);
    expect(checkVapidKeys(null)).toBeNull();
    expect(() => checkVapidKeys({ publicKey: "p", privateKey: "", subject: "mailto:a@b.example" })).toThrow(
      /keys\.vapid\.privateKey/,
    );
    expect(() => checkVapidKeys({ publicKey: "p", privateKey: "k", subject: "a@b" })).toThrow(/mailto: or https/);
    expect(checkVapidKeys({ publicKey: "p", privateKey: "k", subject: "mailto:a@b.example" })).toMatchObject({
      publicKey: "p",
    });
  });
});
