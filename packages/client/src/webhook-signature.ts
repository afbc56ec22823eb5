/**
 * Checking that a webhook came from OpenPractice, for receivers (docs/webhooks.md). Both signature formats a
 * subscription can use are read:
 * - `service` (the default): `X-Service-Signature: t=<seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, keyed with the
 *   subscription's signature key as text;
 * - `standard` (standardwebhooks.com): `webhook-id`, `webhook-timestamp` and `webhook-signature:
 *   v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`, keyed with the key's bytes (its hex decoded).
 * During a key rotation's grace period a delivery carries one signature per key; any one that verifies will do.
 * Web Crypto only, so it runs in Node, Deno, Bun and edge runtimes alike.
 */

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyWebhookInput {
  /** The body exactly as received (the raw bytes or text, not re-serialised JSON). */
  body: string | Uint8Array;
  headers: WebhookHeaders;
  /** The subscription's signature key (128 hex characters); several while you roll keys on your side. */
  signatureKey: string | readonly string[];
  /** How far the signed time may be from now; default 300 s (replays of old deliveries are refused). */
  toleranceSeconds?: number;
  now?: Date;
}

export type VerifyWebhookResult = { ok: true; format: "service" | "standard" } | { ok: false; reason: string };

const encoder = new TextEncoder();

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers))
    if (key.toLowerCase() === wanted) return Array.isArray(value) ? value[0] : value;
  return undefined;
}

function hexBytes(hex: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^(?:[0-9a-f]{2})+$/i.test(hex)) return undefined;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

function base64Bytes(text: string): Uint8Array<ArrayBuffer> | undefined {
  try {
    const binary = atob(text);
    const out = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
    return out;
  } catch {
    return undefined;
  }
}

function concat(prefix: string, body: string | Uint8Array): Uint8Array<ArrayBuffer> {
  const head = encoder.encode(prefix);
  const tail = typeof body === "string" ? encoder.encode(body) : body;
  const out = new Uint8Array(head.length + tail.length);
  out.set(head, 0);
  out.set(tail, head.length);
  return out;
}

/** crypto.subtle.verify compares in constant time. */
async function hmacMatches(
  key: Uint8Array<ArrayBuffer>,
  signature: Uint8Array<ArrayBuffer>,
  data: Uint8Array<ArrayBuffer>,
) {
  const cryptoKey = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
  return crypto.subtle.verify("HMAC", cryptoKey, signature, data);
}

function timely(seconds: number, input: VerifyWebhookInput): boolean {
  const now = Math.floor((input.now ?? new Date()).getTime() / 1000);
  return Math.abs(now - seconds) <= (input.toleranceSeconds ?? 300);
}

export async function verifyWebhook(input: VerifyWebhookInput): Promise<VerifyWebhookResult> {
  const keys = typeof input.signatureKey === "string" ? [input.signatureKey] : [...input.signatureKey];
  const service = header(input.headers, "x-service-signature");
  if (service !== undefined) {
    const match = /^t=(\d{1,12})((?:,v1=[0-9a-f]{64})+)$/.exec(service.trim());
    if (!match) return { ok: false, reason: "X-Service-Signature is not t=<seconds>,v1=<hex>" };
    const t = Number(match[1]);
    if (!timely(t, input)) return { ok: false, reason: "the signed time is outside the tolerance" };
    const data = concat(`${t}.`, input.body);
    const macs = (match[2] as string).split(",v1=").slice(1);
    for (const key of keys)
      for (const mac of macs)
        if (await hmacMatches(encoder.encode(key), hexBytes(mac) as Uint8Array<ArrayBuffer>, data))
          return { ok: true, format: "service" };
    return { ok: false, reason: "no v1 signature matches the key" };
  }
  const signature = header(input.headers, "webhook-signature");
  const id = header(input.headers, "webhook-id");
  const timestamp = header(input.headers, "webhook-timestamp");
  if (signature === undefined || id === undefined || timestamp === undefined)
    return { ok: false, reason: "neither X-Service-Signature nor the webhook-id, -timestamp and -signature headers" };
  if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: "webhook-timestamp is not seconds" };
  if (!timely(Number(timestamp), input)) return { ok: false, reason: "the signed time is outside the tolerance" };
  const data = concat(`${id}.${timestamp}.`, input.body);
  const candidates = signature
    .split(" ")
    .filter((s) => s.startsWith("v1,"))
    .map((s) => base64Bytes(s.slice(3)))
    .filter((b): b is Uint8Array<ArrayBuffer> => b !== undefined);
  for (const key of keys) {
    const bytes = hexBytes(key);
    if (!bytes) continue;
    for (const candidate of candidates)
      if (await hmacMatches(bytes, candidate, data)) return { ok: true, format: "standard" };
  }
  return { ok: false, reason: "no v1 signature matches the key" };
}
