import { storedClaimsGateway } from "./billing/stored-claims-gateway.js";
import { systemClock, type Clock } from "./clock.js";
import { randomIds, type Ids } from "./ids.js";
import type { JobHandler } from "./jobs/job-handler.js";
import type { ModuleDependencies } from "./modules/core-module.js";
import { checkVapidKeys, webhookCipherFromKey, type PracticeKeys } from "./modules/practice-keys.js";
import type { PracticeSettings } from "./modules/practice-settings.js";
import { coreModules, type PracticeServices } from "./modules.js";
import type { PushTransport } from "./notifications/push-transport.js";
import type { Plan } from "./organisations/organisation.js";
import { resolvePlanLimits } from "./organisations/plan-limits.js";
import { DEFAULT_SEARCH_COUNT_LIMIT } from "./patients/patient-service.js";
import type { BillingGateway } from "./ports/billing-gateway.js";
import type { Storage } from "./ports/storage.js";
import type { SoapSummaryRenderer } from "./soap/soap-summary.js";
import type { SecretCipher } from "./webhooks/secret-cipher.js";
import type { WebhookTransport } from "./webhooks/webhook-delivery.js";

export interface PracticeOptions {
  storage: Storage;
  /**
   * Key material the instance cannot run without: the key that encrypts webhook
   * signature keys at rest and the Web Push key pair (or null). Required, with
   * no generated default: see PracticeKeys.
   */
  keys: PracticeKeys;
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
  /** Encrypts webhook signature keys at rest in place of keys.webhookSecretKey (a KMS-backed cipher, say). */
  webhookCipher?: SecretCipher;
  /** Where completed notes' claims go when the organisation auto-submits; default: recorded in the store (claims). */
  billingGateway?: BillingGateway;
  /** Accept http:// notification URLs (OPENPRACTICE_ENV=development); default false. */
  allowHttpWebhooks?: boolean;
  /** Accept http:// push endpoints (OPENPRACTICE_ENV=development, local push services); default false. */
  allowHttpPushEndpoints?: boolean;
  /**
   * What sends and renders. Background work (startBackgroundWork in
   * @openpractice/worker) supplies its own through `withOutbound`; set these
   * only to call the delivery services directly (tests, custom runners).
   * Defaults: webhooks and pushes are refused (recorded as failed), summaries
   * fail for want of a renderer.
   */
  webhookTransport?: WebhookTransport;
  pushTransport?: PushTransport;
  summaryRenderer?: SoapSummaryRenderer;
}

/** What Practice.withOutbound's builder sees: the keys and the adapters configured so far. */
export interface OutboundState extends Partial<OutboundAdapters> {
  vapid: PracticeSettings["vapid"];
}

/** The outbound adapters background work runs a practice with (see Practice.withOutbound). */
export interface OutboundAdapters {
  webhookTransport: WebhookTransport;
  pushTransport: PushTransport;
  summaryRenderer: SoapSummaryRenderer;
}


/** One embedded OpenPractice instance: every service shares this instance's storage and clock, and nothing else. */
export type Practice = Readonly<PracticeServices> & {
  readonly storage: Storage;
  readonly clock: Clock;
  readonly ids: Ids;
  /** Resolves when the store answers; rejects otherwise (readiness). */
  checkReady(): Promise<void>;
  /**
   * The same instance (storage, clock, keys, settings) whose services send and
   * render with these adapters (those left out stay as they are); `build` sees
   * the adapters configured so far (undefined: none) and the VAPID pair a push
   * transport signs with. Background work runs on it.
   */
  withOutbound(build: (current: OutboundState) => Partial<OutboundAdapters>): Practice;
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
    planLimits: resolvePlanLimits({ ...options.planLimits }),
    searchCountLimit: options.searchCountLimit === undefined ? DEFAULT_SEARCH_COUNT_LIMIT : options.searchCountLimit,
    cipher,
    vapid,
    webhookTransport: options.webhookTransport,
    pushTransport: options.pushTransport,
    billingGateway: options.billingGateway ?? storedClaimsGateway,
    summaryRenderer: options.summaryRenderer,
    allowHttpWebhooks: options.allowHttpWebhooks ?? false,
    allowHttpPushEndpoints: options.allowHttpPushEndpoints ?? false,
  });
  return practiceFrom({ storage: options.storage, clock: options.clock ?? systemClock, ids: options.ids ?? randomIds, settings });
}

function practiceFrom(deps: ModuleDependencies): Practice {
  const built = coreModules.map((module) => ({ module, services: module.createServices(deps) }));
  const services = Object.assign({}, ...built.map((b) => b.services)) as PracticeServices;
  const practice: Practice = Object.freeze({
    ...services,
    storage: deps.storage,
    clock: deps.clock,
    ids: deps.ids,
    checkReady: () => deps.storage.ping(),
    withOutbound: (build) => {
      const { vapid, webhookTransport, pushTransport, summaryRenderer } = deps.settings;
      const outbound = Object.entries(build({ vapid, webhookTransport, pushTransport, summaryRenderer })).filter(
        ([, adapter]) => adapter !== undefined,
      );
      return practiceFrom({ ...deps, settings: Object.freeze({ ...deps.settings, ...Object.fromEntries(outbound) }) });
    },
    moduleJobHandlers: () => {
      const handlers = new Map<string, JobHandler>();
      for (const { module, services: own } of built) {
        // Each module's jobs see its own services, typed as it declared them.
        const jobs = (module.jobs as ((s: object, d: ModuleDependencies) => Readonly<Record<string, JobHandler>>) | undefined)?.(own, deps);
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
