import { WEBHOOK_EXCERPT_BYTES, type WebhookTransport } from "@openpractice/core";
import { createOutboundPost, type OutboundPolicy } from "./outbound-http.js";

export { guardedLookup, OutboundAddressError, type OutboundPolicy } from "./outbound-http.js";

/**
 * Webhook POSTs under the outbound address policy (OPENPRACTICE_WEBHOOK_ALLOWED_HOSTS):
 * a hard timeout, redirects not followed (a 3xx is a failure), the response
 * body kept up to 16 KB.
 */
export function createWebhookTransport(policy: OutboundPolicy): WebhookTransport {
  const post = createOutboundPost(policy);
  return {
    async post({ url, headers, body, timeoutMs }) {
      const r = await post({ url, headers, body, timeoutMs, excerptBytes: WEBHOOK_EXCERPT_BYTES });
      return { statusCode: r.statusCode, durationMs: r.durationMs, error: r.error, responseExcerpt: r.excerpt };
    },
  };
}
