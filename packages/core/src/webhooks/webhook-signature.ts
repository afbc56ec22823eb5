import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * The X-Service-Signature header: `t=<epoch seconds>,v1=<hex HMAC-SHA256>` over
 * the string `<t>.<raw body>` with the subscription's signature key (the 128
 * hex characters, used as UTF-8 bytes). Binding the time stops replays of old
 * bodies; docs/webhooks.md shows how receivers check it.
 */
export function signWebhook(signatureKey: string, timestamp: number, body: string): string {
  const mac = createHmac("sha256", signatureKey).update(`${timestamp}.${body}`).digest("hex");
  return `t=${timestamp},v1=${mac}`;
}

/** The receiver's check: a v1 signature matches and `t` is within `toleranceSeconds` of `now`. */
export function verifyWebhookSignature(signatureKey: string, header: string, body: string, options: { now?: Date; toleranceSeconds?: number } = {}): boolean {
  const parts = Object.fromEntries(header.split(",").map((p) => p.split("=", 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || !parts.v1) return false;
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(now - t) > (options.toleranceSeconds ?? 300)) return false;
  const expected = Buffer.from(signWebhook(signatureKey, t, body).split("v1=")[1]!, "hex");
  const given = Buffer.from(parts.v1, "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}
