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
  const match = /^t=(\d{1,12}),v1=([0-9a-f]{64})$/.exec(header ?? "");
  if (!match) return false;
  const t = Number(match[1]);
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(now - t) > (options.toleranceSeconds ?? 300)) return false;
  const expected = createHmac("sha256", signatureKey)
    .update(`${t}.`)
    .update(typeof rawBody === "string" ? rawBody : Buffer.from(rawBody))
    .digest();
  return timingSafeEqual(expected, Buffer.from(match[2]!, "hex"));
}
