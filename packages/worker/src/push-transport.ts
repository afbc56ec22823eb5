import type { PushSendResult, PushTransport } from "@openpractice/core";
import webpush from "web-push";
import type { VapidKeys } from "@openpractice/core";
import { createOutboundPost, type OutboundPolicy } from "./outbound-http.js";

/** A push service answers fast or not at all; a slow one is retried like a 5xx. */
export const PUSH_TIMEOUT_MS = 10_000;

/** Retry-After in seconds from its two forms (RFC 9110 10.2.3): a number of seconds or an HTTP date. */
export function retryAfterSeconds(header: string | string[] | undefined, now: Date): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now.getTime()) / 1000));
}

/**
 * Web Push with the web-push library: it encrypts the payload (aes128gcm,
 * RFC 8291) and signs the VAPID JWT (RFC 8292) in generateRequestDetails; we
 * send the request ourselves because web-push's own sender speaks only https
 * and cannot apply our outbound address policy at connect time (a device's
 * endpoint comes from a browser, so it must not reach the inside).
 */
export function createPushTransport(options: {
  vapid: Pick<VapidKeys, "publicKey" | "privateKey">;
  subject: string;
  policy: OutboundPolicy;
}): PushTransport {
  const post = createOutboundPost(options.policy);
  const vapidDetails = {
    subject: options.subject,
    publicKey: options.vapid.publicKey,
    privateKey: options.vapid.privateKey,
  };
  const transport: PushTransport = {
    vapidPublicKey: options.vapid.publicKey,
    async send(target, payloadJson, { ttlSeconds }): Promise<PushSendResult> {
      let details: ReturnType<typeof webpush.generateRequestDetails>;
      try {
        details = webpush.generateRequestDetails(target, payloadJson, {
          vapidDetails,
          TTL: ttlSeconds,
          urgency: "normal",
          contentEncoding: "aes128gcm",
        });
      } catch (error) {
        // Keys that do not encrypt, a subject web-push refuses: the same message will fail the same way.
        return {
          statusCode: null,
          retryAfterSeconds: null,
          durationMs: 0,
          error: `not sent: ${(error as Error).message}`,
          permanent: true,
        };
      }
      const headers = Object.fromEntries(Object.entries(details.headers).map(([k, v]) => [k, String(v)]));
      const r = await post({
        url: details.endpoint,
        headers,
        body: details.body ?? Buffer.alloc(0),
        timeoutMs: PUSH_TIMEOUT_MS,
        excerptBytes: 1024,
      });
      const failed =
        r.error ??
        (r.statusCode !== null && (r.statusCode < 200 || r.statusCode > 299)
          ? `push service answered ${r.statusCode}${r.excerpt ? `: ${r.excerpt.slice(0, 200)}` : ""}`
          : null);
      return {
        statusCode: r.statusCode,
        retryAfterSeconds: retryAfterSeconds(r.headers["retry-after"], new Date()),
        durationMs: r.durationMs,
        error: failed,
        permanent: r.refused,
      };
    },
  };
  return Object.freeze(transport);
}
