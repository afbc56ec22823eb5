import type { BillingGateway } from "../ports/billing-gateway.js";
import type { PushTransport } from "../notifications/push-transport.js";
import type { Plan } from "../organisations/organisation.js";
import type { SoapSummaryRenderer } from "../soap/soap-summary.js";
import type { SecretCipher } from "../webhooks/secret-cipher.js";
import type { WebhookTransport } from "../webhooks/webhook-delivery.js";
import type { VapidKeys } from "./practice-keys.js";

/** The options of createPractice after defaults: what every module's services may read. Frozen. */
export interface PracticeSettings {
  readonly planLimits: Readonly<Record<Plan, number>>;
  /** Exact patient-search counts up to this many; null counts every match. */
  readonly searchCountLimit: number | null;
  /** Encrypts webhook signature keys at rest, from keys.webhookSecretKey (or the webhookCipher option). */
  readonly cipher: SecretCipher;
  /** The Web Push key pair, or null when Web Push is off. */
  readonly vapid: VapidKeys | null;
  /** Sends webhook POSTs (the /test endpoint, background deliveries); undefined: not configured, deliveries refused. */
  readonly webhookTransport: WebhookTransport | undefined;
  /** Sends pushes; undefined: not configured (pushes refused; the VAPID public key still comes from `vapid`). */
  readonly pushTransport: PushTransport | undefined;
  readonly billingGateway: BillingGateway;
  /** Renders PDF summaries; undefined: not configured (the summary job fails). */
  readonly summaryRenderer: SoapSummaryRenderer | undefined;
  readonly allowHttpWebhooks: boolean;
  readonly allowHttpPushEndpoints: boolean;
}
