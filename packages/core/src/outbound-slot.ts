import type { PushTransport } from "./notifications/push-transport.js";
import type { SoapSummaryRenderer } from "./soap/soap-summary.js";
import type { WebhookTransport } from "./webhooks/webhook-delivery.js";

/** What sends and renders: webhook POSTs, Web Push messages, PDF summaries. */
export interface OutboundAdapters {
  webhookTransport: WebhookTransport;
  pushTransport: PushTransport;
  summaryRenderer: SoapSummaryRenderer;
}

/**
 * The outbound adapters of one practice instance. createPractice fills what
 * its options name; background work (startBackgroundWork) fills the rest once
 * at start, so the API (a subscription's /test delivery) and the job runner
 * send through the same adapters. Services hold delegates that read the slot
 * when they send, never a copy.
 */
export type OutboundSlot = Partial<OutboundAdapters>;
