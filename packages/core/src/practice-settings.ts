import type { BillingGateway } from "./billing/billing-gateway.js";
import type { EligibilityGateway } from "./eligibility/eligibility-gateway.js";
import type { DevelopmentOptionName, OptionValues } from "./kernel/options.js";
import type { ModuleOptionDescriptors } from "./modules.js";
import type { Plan } from "./organisations/organisation.js";
import type { OutboundSlot } from "./outbound-slot.js";
import type { VapidKeys } from "./practice-keys.js";
import type { DocumentStore } from "./documents/document-store.js";
import type { MalwareScanner } from "./documents/malware-scanner.js";
import type { SecretCipher } from "./webhooks/secret-cipher.js";

/** The settings a host may set in its own way (the runtime: OPENPRACTICE_ENV), named so in refusals. */
export type HostNamedSetting = DevelopmentOptionName<ModuleOptionDescriptors>;

/** The modules' scalar options after defaults (searchCountLimit, waitlistOfferMinutes, …), by name. */
export type ModuleSettings = OptionValues<ModuleOptionDescriptors>;

/** The options of createPractice after defaults: what every module's services may read. Frozen. */
export interface PracticeSettings extends ModuleSettings {
  readonly planLimits: Readonly<Record<Plan, number>>;
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
  /** Where patient documents' sealed bytes go; null: uploads and downloads are refused. */
  readonly documentStore: DocumentStore | null;
  /** Scans uploaded documents; null: they are served unscanned (scan result not_configured). */
  readonly malwareScanner: MalwareScanner | null;
  /** The media types an upload may be, as detected from its content. */
  readonly documentMediaTypes: readonly string[];
  /** How refusals name the settings a host sets its own way: the options themselves, or the host's own words for them. */
  readonly settingNames: Readonly<Record<HostNamedSetting, string>>;
}
