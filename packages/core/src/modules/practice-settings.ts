import type { EligibilityGateway } from "../ports/eligibility-gateway.js";
import type { BillingGateway } from "../ports/billing-gateway.js";
import type { Plan } from "../organisations/organisation.js";
import type { SecretCipher } from "../webhooks/secret-cipher.js";
import type { OutboundSlot } from "./outbound-slot.js";
import type { VapidKeys } from "./practice-keys.js";

/** The settings a host may set in its own way (the runtime: OPENPRACTICE_ENV), named so in refusals. */
export type HostNamedSetting = "allowHttpWebhooks" | "allowHttpPushEndpoints";

/** The options of createPractice after defaults: what every module's services may read. Frozen. */
export interface PracticeSettings {
  readonly planLimits: Readonly<Record<Plan, number>>;
  /** Exact patient-search counts up to this many; null counts every match. */
  readonly searchCountLimit: number | null;
  /** Encrypts webhook signature keys at rest, from keys.webhookSecretKey (or the webhookCipher option). */
  readonly cipher: SecretCipher;
  /** The Web Push key pair, or null when Web Push is off. */
  readonly vapid: VapidKeys | null;
  /**
   * The instance's outbound adapters (the one mutable part: filled once at
   * start). Unset: webhooks and pushes are refused and recorded as failed (the
   * VAPID public key still comes from `vapid`), summaries fail.
   */
  readonly outbound: OutboundSlot;
  readonly billingGateway: BillingGateway;
  /** null: real-time checks are refused (ELIGIBILITY_NOT_CONFIGURED). */
  readonly eligibilityGateway: EligibilityGateway | null;
  readonly allowHttpWebhooks: boolean;
  /** Grace period of a webhook key rotation that names none (seconds; 0: the old key stops at once, spec rule 5). */
  readonly webhookRotationGraceSeconds: number;
  readonly allowHttpPushEndpoints: boolean;
  /** How refusals name the two settings above: the options themselves, or the host's own words for them. */
  readonly settingNames: Readonly<Record<HostNamedSetting, string>>;
  /** How long a waitlist offer holds its slot (minutes, default 30). */
  readonly waitlistOfferMinutes: number;
}
