export type DeliveryStatus = "pending" | "delivered" | "failed";

/** One event for one subscription, tried on the retry schedule until delivered or failed. */
export interface WebhookDelivery {
  id: number;
  organisationId: number;
  subscriptionId: number;
  /** The outbox event it carries; null for test deliveries. */
  outboxId: number | null;
  /** evt_<uuid>: the receiver's idempotency key, the same on every attempt. */
  eventId: string;
  eventType: string;
  apiVersion: string;
  data: Record<string, unknown>;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: Date | null;
  lastStatusCode: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface WebhookAttempt {
  deliveryId: number;
  attempt: number;
  /** X-Delivery-Id of this attempt. */
  attemptId: string;
  at: Date;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseExcerpt: string | null;
}

/** What the transport reports for one POST. */
export interface TransportResult {
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseExcerpt: string | null;
}

/** Sends one webhook POST (runtime: fetch with a 10 s timeout, no redirects, outbound address checks). */
export interface WebhookTransport {
  post(request: {
    url: string;
    headers: Record<string, string>;
    body: string;
    timeoutMs: number;
  }): Promise<TransportResult>;
}

/** The body receivers get (spec 2.7). */
export interface WebhookEnvelope {
  event_id: string;
  event_type: string;
  api_version: string;
  timestamp: number;
  data: Record<string, unknown>;
  test: boolean;
}
