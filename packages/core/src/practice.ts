import { auditedStorage } from "./audit/audited-storage.js";
import { countedWritesStorage } from "./rate-limits/counted-write.js";
import { storedClaimsGateway } from "./billing/stored-claims-gateway.js";
import { systemClock, type Clock } from "./clock.js";
import { randomIds, type Ids } from "./ids.js";
import type { JobHandler } from "./jobs/job-handler.js";
import type { ModuleDependencies } from "./modules/core-module.js";
import {
  checkVapidKeys,
  PracticeConfigurationError,
  webhookCipherFromKey,
  type PracticeKeys,
} from "./modules/practice-keys.js";
import { WAITLIST_LIMITS } from "./waitlist/waitlist.js";
import type { HostNamedSetting, PracticeSettings } from "./modules/practice-settings.js";
import type { OutboundAdapters, OutboundSlot } from "./modules/outbound-slot.js";
import { coreModules, type PracticeServices } from "./modules.js";
import type { PushTransport } from "./notifications/push-transport.js";
import type { Plan } from "./organisations/organisation.js";
import { resolvePlanLimits } from "./organisations/plan-limits.js";
import { DEFAULT_SEARCH_COUNT_LIMIT } from "./patients/patient-service.js";
import type { BillingGateway } from "./ports/billing-gateway.js";
import type { EligibilityGateway } from "./ports/eligibility-gateway.js";
import type { ReplicaHealth, Storage } from "./ports/storage.js";
import type { Patch } from "./patch.js";
import type { SoapSummaryRenderer } from "./soap/soap-summary.js";
import type { SecretCipher } from "./webhooks/secret-cipher.js";
import type { WebhookTransport } from "./webhooks/webhook-delivery.js";

export interface PracticeOptions {
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
  /**
   * Real-time eligibility checks (e.g. @openpractice/x12's X12 270/271 gateway); without one a check is refused
   * with ELIGIBILITY_NOT_CONFIGURED and results can still be recorded by hand.
   */
  eligibilityGateway?: EligibilityGateway;
  /**
   * How long a rotated-out webhook key keeps signing beside the new one when the rotation names no grace period
   * (seconds, at most 7 days). Default 0: spec 4.4 rule 5, the old key is invalid at once.
   */
  webhookRotationGraceSeconds?: number;
  /**
   * Accept http:// webhook notification URLs, for receivers on a development machine; default false (https only).
   * The outbound address policy is separate: startBackgroundWork's `webhookPolicy` lets deliveries reach loopback.
   */
  allowHttpWebhooks?: boolean;
  /** Accept http:// push endpoints (a local push service in development); default false (https only). */
  allowHttpPushEndpoints?: boolean;
  /**
   * How refusals name allowHttpWebhooks and allowHttpPushEndpoints, for a host that sets them its own way (the
   * runtime passes `OPENPRACTICE_ENV=development`). Default: the options themselves.
   */
  settingNames?: Partial<Record<HostNamedSetting, string>>;
  /** How long a waitlist offer holds its slot, in minutes (1 to 1440; default 30). */
  waitlistOfferMinutes?: number;
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
  const offerMinutes = options.waitlistOfferMinutes;
  if (offerMinutes !== undefined && (!Number.isInteger(offerMinutes) || offerMinutes < 1 || offerMinutes > 1440))
    throw new PracticeConfigurationError(
      `waitlistOfferMinutes must be an integer from 1 to 1440 (got ${offerMinutes})`,
    );
  const settings: PracticeSettings = Object.freeze({
    planLimits: resolvePlanLimits({ ...options.planLimits }),
    searchCountLimit: options.searchCountLimit === undefined ? DEFAULT_SEARCH_COUNT_LIMIT : options.searchCountLimit,
    cipher,
    vapid,
    outbound: definedOnly({
      webhookTransport: options.webhookTransport,
      pushTransport: options.pushTransport,
      summaryRenderer: options.summaryRenderer,
    }),
    billingGateway: options.billingGateway ?? storedClaimsGateway,
    eligibilityGateway: options.eligibilityGateway ?? null,
    allowHttpWebhooks: options.allowHttpWebhooks ?? false,
    webhookRotationGraceSeconds: options.webhookRotationGraceSeconds ?? 0,
    allowHttpPushEndpoints: options.allowHttpPushEndpoints ?? false,
    waitlistOfferMinutes: options.waitlistOfferMinutes ?? WAITLIST_LIMITS.defaultOfferMinutes,
    settingNames: Object.freeze({
      allowHttpWebhooks: "the createPractice option allowHttpWebhooks: true",
      allowHttpPushEndpoints: "the createPractice option allowHttpPushEndpoints: true",
      ...definedOnly({ ...options.settingNames }),
    }),
  });
  const clock = options.clock ?? systemClock;
  return practiceFrom({
    // Writes of an audited operation (an API request) commit their audit entry with them, and a counted write's
    // first transaction its rate-limit hit (inside: a refused hit commits alone, without the entry).
    storage: auditedStorage(countedWritesStorage(options.storage), clock),
    clock,
    ids: options.ids ?? randomIds,
    settings,
  });
}

function practiceFrom(deps: ModuleDependencies): Practice {
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
          module.jobs as ((s: object, d: ModuleDependencies) => Readonly<Record<string, JobHandler>>) | undefined
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
