import { auditedStorage } from "./audit/audited-storage.js";
import type { BillingGateway } from "./billing/billing-gateway.js";
import { storedClaimsGateway } from "./billing/stored-claims-gateway.js";
import { practiceEvents } from "./catalogues.js";
import type { DocumentStore } from "./documents/document-store.js";
import type { MalwareScanner } from "./documents/malware-scanner.js";
import { DEFAULT_ALLOWED_MEDIA_TYPES } from "./documents/patient-document.js";
import type { EligibilityGateway } from "./eligibility/eligibility-gateway.js";
import { systemClock, type Clock } from "./kernel/clock.js";
import { randomIds, type Ids } from "./kernel/ids.js";
import type { JobHandler } from "./kernel/job-handler.js";
import type { ModuleDependencies } from "./kernel/module.js";
import type { ModulesServed } from "./kernel/module-list.js";
import type { Patch } from "./kernel/patch.js";
import type { ReplicaHealth } from "./kernel/storage.js";
import { coreModules, type PracticeServices, type Repositories, type Storage } from "./modules.js";
import type { PushTransport } from "./notifications/push-transport.js";
import type { Plan } from "./organisations/organisation.js";
import { resolvePlanLimits } from "./organisations/plan-limits.js";
import type { OutboundAdapters, OutboundSlot } from "./outbound-slot.js";
import { checkVapidKeys, type PracticeKeys, webhookCipherFromKey } from "./practice-keys.js";
import { type ModuleOptions, resolveModuleSettings, resolveSettingNames } from "./practice-options.js";
import type { HostNamedSetting, PracticeSettings } from "./practice-settings.js";
import { countedWritesStorage } from "./rate-limits/counted-write.js";
import type { SoapSummaryRenderer } from "./soap/soap-summary.js";
import type { SecretCipher } from "./webhooks/secret-cipher.js";
import type { WebhookTransport } from "./webhooks/webhook-delivery.js";

/**
 * The options of createPractice: the ones below (storage, keys, objects such as gateways and transports) and each
 * module's scalar options (ModuleOptions: searchCountLimit, webhookRotationGraceSeconds, allowHttpWebhooks,
 * allowHttpPushEndpoints, waitlistOfferMinutes, …), declared with their range and default where the module is.
 */
export interface PracticeOptions extends ModuleOptions {
  /** The store every service uses: createSqliteStorage, createPostgresStorage, createMysqlStorage, or your own adapter. */
  storage: Storage;
  /**
   * Key material the instance cannot run without: the key that encrypts webhook
   * signature keys at rest and the Web Push key pair (or null). Required, with
   * no generated default: see PracticeKeys.
   */
  keys: PracticeKeys;
  /** Where the instance reads the time; default the system clock (tests pass a fixed one). */
  clock?: Clock;
  /** How the instance makes random ids and tokens; default node:crypto. */
  ids?: Ids;
  /** Requests per minute per plan, overriding the spec's defaults. */
  planLimits?: Partial<Record<Plan, number>>;
  /** Encrypts webhook signature keys at rest in place of keys.webhookSecretKey (a KMS-backed cipher, say). */
  webhookCipher?: SecretCipher;
  /** Where completed notes' claims go when the organisation auto-submits; default: recorded in the store (claims). */
  billingGateway?: BillingGateway;
  /**
   * Real-time eligibility checks (e.g. @openpractice/x12's X12 270/271 gateway); without one a check is refused
   * with ELIGIBILITY_NOT_CONFIGURED and results can still be recorded by hand.
   */
  eligibilityGateway?: EligibilityGateway;
  /**
   * Where patient documents' bytes go, sealed (encrypted per document) before they reach it: @openpractice/files'
   * FileSystemDocumentStore (the runtime's default, under its data directory), @openpractice/s3's S3DocumentStore,
   * or your own. Without one, uploads and downloads are refused with DOCUMENT_STORE_NOT_CONFIGURED (visit summaries
   * are still listed and served).
   */
  documentStore?: DocumentStore;
  /**
   * Scans uploads before they are served (@openpractice/clamav's ClamdScanner). Without one, documents are served
   * unscanned, with scan result not_configured.
   */
  malwareScanner?: MalwareScanner;
  /**
   * The media types an upload may be, detected from its content (file-type's names; text/plain for UTF-8 text).
   * Default: PDF, JPEG, PNG, HEIC/HEIF, TIFF and plain text.
   */
  documentMediaTypes?: readonly string[];
  /**
   * How refusals name allowHttpWebhooks and allowHttpPushEndpoints, for a host that sets them its own way (the
   * runtime passes `OPENPRACTICE_ENV=development`). Default: the options themselves.
   */
  settingNames?: Partial<Record<HostNamedSetting, string>>;
  /**
   * Sends webhook deliveries. Usually left out, as are pushTransport and
   * summaryRenderer: startBackgroundWork (@openpractice/worker) sets the
   * shipped adapters for what these leave out (HTTPS under its webhookPolicy).
   * Set them to send another way, or to call the delivery services without
   * background work (tests, custom runners). Unset and without background
   * work: webhooks and pushes are refused (recorded as failed), summaries fail.
   */
  webhookTransport?: WebhookTransport;
  /** Sends Web Push messages; default (with background work): web-push signed with keys.vapid. See webhookTransport. */
  pushTransport?: PushTransport;
  /** Lays out SOAP note summaries as PDF; default (with background work): @openpractice/pdf-lib. See webhookTransport. */
  summaryRenderer?: SoapSummaryRenderer;
}

/** What Practice.useOutbound's builder sees: the keys and the adapters set so far. */
export interface OutboundState extends OutboundSlot {
  vapid: PracticeSettings["vapid"];
}

/** The entries whose value is not undefined (an option left out never unsets an adapter). */
function definedOnly<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** One embedded OpenPractice instance: every service shares this instance's storage and clock, and nothing else. */
export type Practice = Readonly<PracticeServices> & {
  readonly storage: Storage;
  readonly clock: Clock;
  readonly ids: Ids;
  /**
   * Resolves when the store answers, with each read replica's state (a replica
   * down leaves the instance ready: its reads go to the primary); rejects when
   * the primary does not answer (readiness).
   */
  checkReady(): Promise<{ replicas: ReplicaHealth[] }>;
  /**
   * Sets the instance's outbound adapters (those `build` leaves out stay as
   * they are); `build` sees the adapters set so far and the VAPID pair a push
   * transport signs with. startBackgroundWork calls it once at start, so the
   * API and the job runner send through the same adapters.
   */
  useOutbound(build: (current: OutboundState) => Patch<OutboundAdapters>): void;
  /** The queued jobs of every module, by queue name, run on this instance's services. */
  moduleJobHandlers(): Map<string, JobHandler>;
};

/**
 * Builds an instance from the core module list. All state lives in the
 * returned object (no module-level singletons), so the library can be embedded
 * twice in one process; the options are copied, never mutated. Throws
 * PracticeConfigurationError, naming the option, when key material is missing.
 */
export function createPractice(options: PracticeOptions): Practice {
  const keys = options.keys ?? ({} as Partial<PracticeKeys>);
  const cipher = options.webhookCipher ?? webhookCipherFromKey(keys.webhookSecretKey);
  const vapid = checkVapidKeys(keys.vapid);
  const settings: PracticeSettings = Object.freeze({
    ...resolveModuleSettings(options),
    planLimits: resolvePlanLimits({ ...options.planLimits }),
    cipher,
    vapid,
    outbound: definedOnly({
      webhookTransport: options.webhookTransport,
      pushTransport: options.pushTransport,
      summaryRenderer: options.summaryRenderer,
    }),
    billingGateway: options.billingGateway ?? storedClaimsGateway,
    eligibilityGateway: options.eligibilityGateway ?? null,
    documentStore: options.documentStore ?? null,
    malwareScanner: options.malwareScanner ?? null,
    documentMediaTypes: Object.freeze([...(options.documentMediaTypes ?? DEFAULT_ALLOWED_MEDIA_TYPES)]),
    settingNames: resolveSettingNames({ ...options.settingNames }),
  });
  const clock = options.clock ?? systemClock;
  return practiceFrom({
    // Writes of an audited operation (an API request) commit their audit entry with them, and a counted write's
    // first transaction its rate-limit hit (inside: a refused hit commits alone, without the entry).
    storage: auditedStorage(countedWritesStorage(options.storage), clock),
    clock,
    ids: options.ids ?? randomIds,
    settings,
    eventCatalogue: practiceEvents,
  });
}

/** What every module is built from here: the whole storage, the settings, the catalogue of every event. */
type PracticeDependencies = ModuleDependencies<Repositories, PracticeSettings>;

type Served = ModulesServed<typeof coreModules, PracticeDependencies>;
type Key = (typeof coreModules)[number]["key"];
// Fails to compile, naming the modules, when one asks for a repository no module owns or a setting the practice lacks.
const everyModuleServed: [Served[Key]] extends [never] ? true : Exclude<Served[Key], never> = true;
void everyModuleServed;

function practiceFrom(deps: PracticeDependencies): Practice {
  const built = coreModules.map((module) => ({ module, services: module.createServices(deps) }));
  const services = Object.assign({}, ...built.map((b) => b.services)) as PracticeServices;
  const practice: Practice = Object.freeze({
    ...services,
    storage: deps.storage,
    clock: deps.clock,
    ids: deps.ids,
    checkReady: async () => {
      await deps.storage.ping();
      return { replicas: (await deps.storage.replicaHealth?.()) ?? [] };
    },
    useOutbound: (build) => {
      const slot = deps.settings.outbound;
      Object.assign(slot, definedOnly(build({ vapid: deps.settings.vapid, ...slot })));
    },
    moduleJobHandlers: () => {
      const handlers = new Map<string, JobHandler>();
      for (const { module, services: own } of built) {
        // Each module's jobs see its own services, typed as it declared them.
        const jobs = (
          module.jobs as ((s: object, d: PracticeDependencies) => Readonly<Record<string, JobHandler>>) | undefined
        )?.(own, deps);
        for (const [queue, handler] of Object.entries(jobs ?? {})) {
          if (handlers.has(queue)) throw new Error(`two modules handle the queue ${queue}`);
          handlers.set(queue, handler);
        }
      }
      return handlers;
    },
  });
  return practice;
}
