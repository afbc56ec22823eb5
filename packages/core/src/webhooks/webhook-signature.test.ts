import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { signWebhook, verifyWebhook } from "./webhook-signature.js";

const key = "ab".repeat(64);
const body = '{"event_id":"evt_1","data":{"organisation_id":1}}';
/** An independent signer (plain node:crypto, written from the documented format, not our signWebhook). */
const independent = (t: number, raw: string, k = key) =>
  `t=${t},v1=${createHmac("sha256", Buffer.from(k, "utf8"))
    .update(Buffer.from(`${t}.${raw}`, "utf8"))
    .digest("hex")}`;
const now = new Date("2026-11-22T05:00:00Z");
const t = Math.floor(now.getTime() / 1000);

describe("webhook signatures", () => {
  it("our signer matches the independent one byte for byte", () => {
    expect(signWebhook(key, t, body)).toBe(independent(t, body));
  });

  it("verifyWebhook accepts an independently computed signature, as a string or as raw bytes", () => {
    expect(verifyWebhook(body, independent(t, body), key, { now })).toBe(true);
    expect(verifyWebhook(Buffer.from(body), independent(t, body), key, { now })).toBe(true);
  });

  it("rejects a changed body, another key, a malformed header, and timestamps too old or too far ahead", () => {
    expect(verifyWebhook(body.replace("1}", "2}"), independent(t, body), key, { now })).toBe(false);
    expect(verifyWebhook(body, independent(t, body, "cd".repeat(64)), key, { now })).toBe(false);
    for (const header of ["", "t=abc,v1=00", `v1=${"0".repeat(64)}`, `t=${t}`, `${independent(t, body)},v0=zz`])
      expect(verifyWebhook(body, header, key, { now })).toBe(false);
    expect(verifyWebhook(body, independent(t - 301, body), key, { now })).toBe(false);
    expect(verifyWebhook(body, independent(t + 301, body), key, { now })).toBe(false);
    expect(verifyWebhook(body, independent(t - 299, body), key, { now })).toBe(true);
    expect(verifyWebhook(body, independent(t - 600, body), key, { now, toleranceSeconds: 900 })).toBe(true);
  });

  it("during a rotation's grace period the header carries one v1 per key, and either key verifies it", () => {
    const other = "cd".repeat(64);
    const header = signWebhook([key, other], t, body);
    const [, second] = independent(t, body, other).split(",");
    expect(header).toBe(`${independent(t, body)},${second}`);
    expect(verifyWebhook(body, header, key, { now })).toBe(true);
    expect(verifyWebhook(body, header, other, { now })).toBe(true);
    expect(verifyWebhook(body, header, "ef".repeat(64), { now })).toBe(false);
  });
});
