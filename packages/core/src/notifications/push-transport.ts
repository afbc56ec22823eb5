import type { PushKeys } from "./notification.js";

/** What the transport reports for one push message. */
export interface PushSendResult {
  /** The push service's HTTP status; null when no answer came (network error, timeout, refused before sending). */
  statusCode: number | null;
  /** The push service's Retry-After, in seconds (from seconds or an HTTP date), when it sent one. */
  retryAfterSeconds: number | null;
  durationMs: number;
  error: string | null;
  /** True when sending again cannot help (no transport configured, the endpoint's address is not allowed). */
  permanent?: boolean;
}

/**
 * Sends one encrypted, VAPID-signed Web Push message (RFC 8030, 8291, 8292).
 * The runtime's implementation uses the web-push library; `vapidPublicKey` is
 * the application server key browsers subscribe with (null: push not set up).
 * One call is one attempt: retrying is the caller's decision.
 */
export interface PushTransport {
  readonly vapidPublicKey: string | null;
  send(
    target: { endpoint: string; keys: PushKeys },
    payloadJson: string,
    options: { ttlSeconds: number },
  ): Promise<PushSendResult>;
}

/** The default of embedders that configured no push: every push fails at once, recorded, and inbox entries still appear. */
export const noPushTransport: PushTransport = Object.freeze({
  vapidPublicKey: null,
  send: async () => ({
    statusCode: null,
    retryAfterSeconds: null,
    durationMs: 0,
    error: "no push transport configured",
    permanent: true,
  }),
});
