import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * The X-Service-Signature header: `t=<epoch seconds>,v1=<hex HMAC-SHA256>` over
 * the string `<t>.<raw body>` with the subscription's signature key (the 128
 * hex characters, used as UTF-8 bytes). Binding the time stops replays of old
 * bodies; docs/webhooks.md shows how receivers check it.
 */
export function signWebhook(signatureKey: string | readonly string[], timestamp: number, body: string): string {
  // During a rotation's grace period one v1 per key (the new one first), as Stripe signs during a roll.
  const keys = typeof signatureKey === "string" ? [signatureKey] : signatureKey;
  const macs = keys.map((key) => `v1=${createHmac("sha256", key).update(`${timestamp}.${body}`).digest("hex")}`);
  return `t=${timestamp},${macs.join(",")}`;
}

/**
 * The receiver's check (docs/webhooks.md): true when the header's v1 HMAC of
 * `<t>.<rawBody>` under `signatureKey` matches, compared in constant time, and
 * `t` is neither older nor further in the future than `toleranceSeconds`
 * (default 300) from `now`. Pass the raw body exactly as received.
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  header: string | null | undefined,
  signatureKey: string,
  options: { toleranceSeconds?: number; now?: Date } = {},
): boolean {
  const match = /^t=(\d{1,12})((?:,v1=[0-9a-f]{64}){1,4})$/.exec(header ?? "");
  if (!match) return false;
  const t = Number(match[1]);
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(now - t) > (options.toleranceSeconds ?? 300)) return false;
  const expected = createHmac("sha256", signatureKey)
    .update(`${t}.`)
    .update(typeof rawBody === "string" ? rawBody : Buffer.from(rawBody))
    .digest();
  // Any v1 may be ours: during a rotation's grace period there is one per key.
  return (match[2] as string)
    .split(",v1=")
    .slice(1)
    .some((mac) => timingSafeEqual(expected, Buffer.from(mac, "hex")));
}

/**
 * The secret a Standard Webhooks library takes for a subscription: `whsec_` and the base64 of the key's bytes
 * (the 128 hex characters decoded: 64 bytes).
 */
export const standardWebhooksSecret = (signatureKey: string) =>
  `whsec_${Buffer.from(signatureKey, "hex").toString("base64")}`;

/**
 * The Standard Webhooks headers (standardwebhooks.com): `webhook-id` (the event id, the same on every retry),
 * `webhook-timestamp` (seconds) and `webhook-signature`, `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`
 * under the key's bytes, one space-separated entry per key during a rotation's grace period.
 */
export function standardWebhookHeaders(
  signatureKey: string | readonly string[],
  messageId: string,
  timestamp: number,
  body: string,
): Record<string, string> {
  const keys = typeof signatureKey === "string" ? [signatureKey] : signatureKey;
  const signatures = keys.map(
    (key) =>
      `v1,${createHmac("sha256", Buffer.from(key, "hex")).update(`${messageId}.${timestamp}.${body}`).digest("base64")}`,
  );
  return {
    "webhook-id": messageId,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signatures.join(" "),
  };
}
