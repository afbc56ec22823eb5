import { AppointmentService } from "./appointments/appointment-service.js";
import { AuthorizationService } from "./cases/authorization-service.js";
import { CaseService } from "./cases/case-service.js";
import { InsuranceCardService } from "./cases/insurance-card-service.js";
import { ReferringPhysicianService } from "./cases/referring-physician-service.js";
import { CatalogService } from "./catalog/catalog-service.js";
import { SoapNoteService } from "./soap/soap-note-service.js";
import { SoapWorkflowService } from "./soap/soap-workflow-service.js";
import { SoapDocumentService } from "./soap/soap-document-service.js";
import type { SoapSummaryRenderer } from "./soap/soap-summary.js";
import { TreatmentSheetService } from "./soap/treatment-sheet-service.js";
import { DocumentationSettingsService } from "./organisations/documentation-settings.js";
import { storedClaimsGateway } from "./billing/stored-claims-gateway.js";
import type { BillingGateway } from "./ports/billing-gateway.js";
import { IcdService } from "./icd/icd-search-service.js";
import { BillingCatalogService } from "./billing/billing-catalog-service.js";
import { WebhookDeliveryService } from "./webhooks/delivery-service.js";
import { AesGcmSecretCipher, type SecretCipher } from "./webhooks/secret-cipher.js";
import type { WebhookTransport } from "./webhooks/webhook-delivery.js";
import { WebhookService } from "./webhooks/webhook-service.js";
import { DeviceService } from "./notifications/device-service.js";
import { NotificationDeliveryService } from "./notifications/delivery-service.js";
import { NotificationService } from "./notifications/notification-service.js";
import { noPushTransport, type PushTransport } from "./notifications/push-transport.js";
import { randomBytes } from "node:crypto";
import { systemClock, type Clock } from "./clock.js";
import { randomIds, type Ids } from "./ids.js";
import type { Plan } from "./organisations/organisation.js";
import { DirectoryService } from "./organisations/directory-service.js";
import { resolvePlanLimits } from "./organisations/plan-limits.js";
import { DEFAULT_SEARCH_COUNT_LIMIT, PatientService } from "./patients/patient-service.js";
import type { Storage } from "./ports/storage.js";
import { RateLimiter } from "./rate-limits/rate-limiter.js";

export interface PracticeOptions {
  storage: Storage;
  clock?: Clock;
  ids?: Ids;
  /** Requests per minute per plan, overriding the spec's defaults. */
  planLimits?: Partial<Record<Plan, number>>;
  /**
   * Patient searches count matches exactly up to this many, then report this
   * number with `total_count_exact: false` (default 1,000). null counts every
   * match, which is slow for common terms in large organisations.
   */
  searchCountLimit?: number | null;
  /**
   * Encrypts webhook signature keys at rest. Pass an AesGcmSecretCipher with a
   * key you keep (the runtime reads or generates one in its data directory);
   * the default key lives only as long as the process, so stored keys become
   * unreadable after a restart.
   */
  webhookCipher?: SecretCipher;
  /** Sends webhook POSTs; the default refuses every delivery (embedders without webhooks). */
  webhookTransport?: WebhookTransport;
  /** Where completed notes' claims go when the organisation auto-submits; default: recorded in the store (claims). */
  billingGateway?: BillingGateway;
  /** Renders completed notes' summaries (the runtime passes @openpractice/pdf-lib's); without one the summary job fails. */
  summaryRenderer?: SoapSummaryRenderer;
  /** Accept http:// notification URLs (OPENPRACTICE_ENV=development); default false. */
  allowHttpWebhooks?: boolean;
  /**
   * Sends Web Push messages and holds the VAPID public key; the default
   * refuses every push (recorded as failed) and has no key, so notifications
   * still reach the in-app inbox.
   */
  pushTransport?: PushTransport;
  /** Accept http:// push endpoints (OPENPRACTICE_ENV=development, local push services); default false. */
  allowHttpPushEndpoints?: boolean;
}

const noTransport: WebhookTransport = {
  post: async () => ({ statusCode: null, durationMs: 0, error: "no webhook transport configured", responseExcerpt: null }),
};

/** One embedded OpenPractice instance: every service shares this instance's storage and clock, and nothing else. */
export interface Practice {
  readonly storage: Storage;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly patients: PatientService;
  readonly appointments: AppointmentService;
  readonly cases: CaseService;
  readonly referringPhysicians: ReferringPhysicianService;
  readonly insuranceCards: InsuranceCardService;
  readonly authorizations: AuthorizationService;
  readonly directory: DirectoryService;
  readonly catalog: CatalogService;
  readonly webhooks: WebhookService;
  readonly soapNotes: SoapNoteService;
  readonly soapWorkflow: SoapWorkflowService;
  readonly soapDocuments: SoapDocumentService;
  readonly treatmentSheets: TreatmentSheetService;
  readonly documentationSettings: DocumentationSettingsService;
  readonly icd: IcdService;
  readonly billingCatalog: BillingCatalogService;
  readonly webhookDeliveries: WebhookDeliveryService;
  readonly notifications: NotificationService;
  readonly pushDevices: DeviceService;
  readonly notificationDeliveries: NotificationDeliveryService;
  readonly rateLimiter: RateLimiter;
  /** Resolves when the store answers; rejects otherwise (readiness). */
  checkReady(): Promise<void>;
}

/**
 * Builds an instance. All state lives in the returned object (no module-level
 * singletons), so the library can be embedded twice in one process; the options
 * are copied, never mutated.
 */
export function createPractice(options: PracticeOptions): Practice {
  const storage = options.storage;
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? randomIds;
  const planLimits = resolvePlanLimits({ ...options.planLimits });
  const cipher = options.webhookCipher ?? new AesGcmSecretCipher(randomBytes(32));
  const transport = options.webhookTransport ?? noTransport;
  const pushTransport = options.pushTransport ?? noPushTransport;
  return Object.freeze({
    storage,
    clock,
    ids,
    patients: new PatientService({ storage, clock, searchCountLimit: options.searchCountLimit === undefined ? DEFAULT_SEARCH_COUNT_LIMIT : options.searchCountLimit }),
    appointments: new AppointmentService({ storage, clock }),
    cases: new CaseService({ storage, clock }),
    referringPhysicians: new ReferringPhysicianService({ storage, clock }),
    insuranceCards: new InsuranceCardService({ storage, clock }),
    authorizations: new AuthorizationService({ storage, clock }),
    directory: new DirectoryService({ storage }),
    catalog: new CatalogService({ storage }),
    webhooks: new WebhookService({ storage, clock, cipher, allowHttp: options.allowHttpWebhooks ?? false }),
    soapNotes: new SoapNoteService({ storage, clock, ids }),
    soapWorkflow: new SoapWorkflowService({ storage, clock, billingGateway: options.billingGateway ?? storedClaimsGateway }),
    soapDocuments: new SoapDocumentService({ storage, clock, renderer: options.summaryRenderer }),
    treatmentSheets: new TreatmentSheetService({ storage, clock }),
    documentationSettings: new DocumentationSettingsService({ storage, clock }),
    icd: new IcdService({ storage }),
    billingCatalog: new BillingCatalogService({ storage, clock }),
    webhookDeliveries: new WebhookDeliveryService({ storage, clock, ids, cipher, transport }),
    notifications: new NotificationService({ storage, clock, ids, transport: pushTransport }),
    pushDevices: new DeviceService({ storage, clock, ids, allowHttp: options.allowHttpPushEndpoints ?? false }),
    notificationDeliveries: new NotificationDeliveryService({ storage, clock, transport: pushTransport }),
    rateLimiter: new RateLimiter({ storage, clock, planLimits }),
    checkReady: () => storage.ping(),
  });
}
