import { systemError } from "../kernel/system-errors.js";
import { webhookError } from "./webhook-errors.js";
import type { Principal } from "../auth/principal.js";
import type { Clock } from "../kernel/clock.js";
import { DomainError } from "../kernel/domain-error.js";
import type { EventCatalogue } from "../kernel/event-catalogue.js";
import type { Organisation } from "../organisations/organisation.js";
import type { Storage } from "../kernel/storage.js";
import type { WebhookServiceRepositories } from "./webhook-service-repositories.js";
import { assertValidSubscription, checkEventTypes } from "./webhook-rules.js";
import { newSignatureKey, type SecretCipher } from "./secret-cipher.js";
import {
  LATEST_WEBHOOK_API_VERSION,
  MAX_KEY_ROTATION_GRACE_SECONDS,
  type StoredSubscription,
  type SubscriptionChanges,
  type SubscriptionDraft,
  type SubscriptionWithKey,
  type WebhookSubscription,
} from "./webhook-subscription.js";

export const subscriptionNotFound = (id: unknown) =>
  webhookError("SUBSCRIPTION_NOT_FOUND", "Subscription not found", { subscription_id: id });

/** The public face of a stored subscription: never the key, not even encrypted. */
export function publicSubscription(s: StoredSubscription): WebhookSubscription {
  const { encryptedKey: _k, previousEncryptedKey: _p, ...rest } = s;
  return rest;
}

/** The keys a delivery is signed with now: the current one, and the one rotated out while its grace period lasts. */
export function signingKeysOf(s: StoredSubscription, cipher: SecretCipher, now: Date): string[] {
  const keys = [cipher.decrypt(s.encryptedKey)];
  if (s.previousEncryptedKey && s.previousKeyExpiresAt && s.previousKeyExpiresAt > now)
    keys.push(cipher.decrypt(s.previousEncryptedKey));
  return keys;
}

/**
 * Webhook subscriptions (spec 4.4, rules 1 to 7) of the principal's
 * organisation. Writes lock the organisation first, so the duplicate rule
 * (one active subscription per event and URL) holds under concurrency.
 */
export class WebhookService {
  constructor(
    private readonly deps: {
      storage: Storage<WebhookServiceRepositories>;
      clock: Clock;
      cipher: SecretCipher;
      /** The practice's event types, which subscriptions may name. */
      events: EventCatalogue;
      allowHttp: boolean;
      /** What a refused http URL names as the setting that accepts it. */
      httpSetting: string;
      /** The grace period of a rotation that names none: 0 (spec 4.4 rule 5) unless the instance says otherwise. */
      rotationGraceSeconds?: number | undefined;
    },
  ) {}

  /** Rule 4: refuses when another active subscription sends one of `s`'s events to its exact URL. */
  private async assertNoDuplicate(
    tx: WebhookServiceRepositories,
    s: Pick<StoredSubscription, "id" | "organisationId" | "eventTypes" | "notificationUrl" | "isActive">,
  ): Promise<void> {
    if (!s.isActive) return;
    const active = await tx.webhooks.listSubscriptions(s.organisationId, { isActive: true });
    for (const other of active) {
      if (other.id === s.id || other.notificationUrl !== s.notificationUrl) continue;
      const overlap = other.eventTypes.filter((t) => s.eventTypes.includes(t));
      if (overlap.length) {
        throw webhookError(
          "DUPLICATE_SUBSCRIPTION",
          `Subscription ${other.id} already sends ${overlap.join(", ")} to this notification_url`,
          {
            conflicting_subscription_id: other.id,
            overlapping_event_types: overlap,
            notification_url: s.notificationUrl,
          },
        );
      }
    }
  }

  /** Rule 7: the first create of an unknown organisation creates it from the token's claims. */
  private async lockOrganisation(tx: WebhookServiceRepositories, principal: Principal, create: boolean): Promise<void> {
    if (await tx.webhooks.lockOrganisation(principal.organisationId)) return;
    if (!create) throw subscriptionNotFound(null);
    await tx.organisations.ensure({
      id: principal.organisationId,
      name: principal.organisationName ?? `Organisation ${principal.organisationId}`,
      plan: "free",
      now: this.deps.clock.now(),
    });
    await tx.webhooks.lockOrganisation(principal.organisationId);
  }

  async create(principal: Principal, draft: SubscriptionDraft): Promise<SubscriptionWithKey> {
    assertValidSubscription(draft, true, {
      allowHttp: this.deps.allowHttp,
      httpSetting: this.deps.httpSetting,
      events: this.deps.events,
    });
    const now = this.deps.clock.now();
    const signatureKey = newSignatureKey();
    return this.deps.storage.transaction(async (tx) => {
      await this.lockOrganisation(tx, principal, true);
      const record = {
        organisationId: principal.organisationId,
        name: draft.name.trim(),
        eventTypes: [...draft.eventTypes],
        notificationUrl: draft.notificationUrl,
        apiVersion: draft.apiVersion ?? LATEST_WEBHOOK_API_VERSION,
        isActive: true,
        signatureFormat: draft.signatureFormat ?? "service",
        previousKeyExpiresAt: null,
        previousEncryptedKey: null,
        createdAt: now,
        updatedAt: now,
        encryptedKey: this.deps.cipher.encrypt(signatureKey),
      };
      await this.assertNoDuplicate(tx, { ...record, id: 0 });
      const stored = await tx.webhooks.insertSubscription(record);
      return { subscription: publicSubscription(stored), signatureKey };
    });
  }

  async list(principal: Principal, filter: { isActive?: boolean | undefined }): Promise<WebhookSubscription[]> {
    return (await this.deps.storage.repositories.webhooks.listSubscriptions(principal.organisationId, filter)).map(
      publicSubscription,
    );
  }

  async get(principal: Principal, id: number): Promise<WebhookSubscription> {
    return publicSubscription(await this.stored(this.deps.storage.repositories, principal, id));
  }

  private async stored(r: WebhookServiceRepositories, principal: Principal, id: number): Promise<StoredSubscription> {
    const found =
      Number.isSafeInteger(id) && id > 0 ? await r.webhooks.findSubscription(principal.organisationId, id) : undefined;
    if (!found) throw subscriptionNotFound(id);
    return found;
  }

  /** One locked read-modify-write of a subscription; `change` returns the new state (or the same object for no change). */
  private async modify(
    principal: Principal,
    id: number,
    change: (s: StoredSubscription) => StoredSubscription,
  ): Promise<StoredSubscription> {
    return this.deps.storage.transaction(async (tx) => {
      if (!(await tx.webhooks.lockOrganisation(principal.organisationId))) throw subscriptionNotFound(id);
      const current = await this.stored(tx, principal, id);
      const next = change(current);
      if (next === current) return current;
      const updated = { ...next, updatedAt: this.deps.clock.now() };
      // Rule 4 runs when the URL or the events change, or on reactivation.
      const reactivated = !current.isActive && updated.isActive;
      if (
        reactivated ||
        updated.notificationUrl !== current.notificationUrl ||
        updated.eventTypes.join() !== current.eventTypes.join()
      )
        await this.assertNoDuplicate(tx, updated);
      await tx.webhooks.updateSubscription(updated);
      return updated;
    });
  }

  /** PATCH: name, event_types (replaces the array), notification_url, api_version, is_active. */
  async update(principal: Principal, id: number, changes: SubscriptionChanges): Promise<WebhookSubscription> {
    assertValidSubscription(changes, false, {
      allowHttp: this.deps.allowHttp,
      httpSetting: this.deps.httpSetting,
      events: this.deps.events,
    });
    const defined = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as {
      [K in keyof SubscriptionChanges]?: Exclude<SubscriptionChanges[K], undefined>;
    };
    return publicSubscription(
      await this.modify(principal, id, (s) => ({
        ...s,
        ...defined,
        name: defined.name?.trim() ?? s.name,
        eventTypes: (defined.eventTypes as string[] | undefined) ?? s.eventTypes,
      })),
    );
  }

  /** Rule 1: adds events, keeps the rest; events already present change nothing. */
  async subscribe(principal: Principal, id: number, eventTypes: string[]): Promise<WebhookSubscription> {
    this.assertEventList(eventTypes);
    return publicSubscription(
      await this.modify(principal, id, (s) => {
        const added = eventTypes.filter((t) => !s.eventTypes.includes(t));
        return added.length ? { ...s, eventTypes: [...s.eventTypes, ...added] } : s;
      }),
    );
  }

  /** Rules 2 and 3: removes events (unknown ones ignored); removing every event is CANNOT_REMOVE_ALL_EVENTS. */
  async unsubscribe(principal: Principal, id: number, eventTypes: string[]): Promise<WebhookSubscription> {
    this.assertEventList(eventTypes);
    return publicSubscription(
      await this.modify(principal, id, (s) => {
        const kept = s.eventTypes.filter((t) => !eventTypes.includes(t));
        if (kept.length === 0) {
          throw webhookError(
            "CANNOT_REMOVE_ALL_EVENTS",
            "Unsubscribing would leave no events; delete the subscription instead",
            { subscription_id: s.id, event_types: s.eventTypes },
          );
        }
        return kept.length === s.eventTypes.length ? s : { ...s, eventTypes: kept };
      }),
    );
  }

  private assertEventList(eventTypes: string[]): void {
    const issues: Parameters<typeof checkEventTypes>[0] = [];
    checkEventTypes(issues, eventTypes, this.deps.events);
    if (issues.length) throw DomainError.validation(issues);
  }

  async delete(principal: Principal, id: number): Promise<void> {
    if (!Number.isSafeInteger(id) || id <= 0) throw subscriptionNotFound(id);
    // Refused inside the transaction, so an audited request's entry is rolled back with it.
    await this.deps.storage.transaction(async (tx) => {
      if (!(await tx.webhooks.deleteSubscription(principal.organisationId, id))) throw subscriptionNotFound(id);
    });
  }

  /**
   * Rule 5: a new key, and by default the old one is invalid at once; pending retries are signed with the new key
   * on their next attempt. With a grace period (`gracePeriodSeconds`, or the instance's default) the old key
   * keeps signing beside the new one until it ends, as Svix and Stripe roll keys; a key rotated out before is dropped.
   */
  async rotateSecret(
    principal: Principal,
    id: number,
    options: { gracePeriodSeconds?: number | undefined } = {},
  ): Promise<SubscriptionWithKey> {
    const grace = options.gracePeriodSeconds ?? this.deps.rotationGraceSeconds ?? 0;
    if (!Number.isSafeInteger(grace) || grace < 0 || grace > MAX_KEY_ROTATION_GRACE_SECONDS)
      throw DomainError.validation([
        {
          field: "gracePeriodSeconds",
          reason: `must be an integer from 0 to ${MAX_KEY_ROTATION_GRACE_SECONDS}`,
          value: options.gracePeriodSeconds,
        },
      ]);
    const signatureKey = newSignatureKey();
    const now = this.deps.clock.now();
    const updated = await this.modify(principal, id, (s) => ({
      ...s,
      encryptedKey: this.deps.cipher.encrypt(signatureKey),
      previousEncryptedKey: grace > 0 ? s.encryptedKey : null,
      previousKeyExpiresAt: grace > 0 ? new Date(now.getTime() + grace * 1000) : null,
    }));
    return { subscription: publicSubscription(updated), signatureKey };
  }

  /** The subscription's current key in clear, for signing (never returned by the API). */
  async signingKey(organisationId: number, id: number): Promise<string | undefined> {
    const s = await this.deps.storage.repositories.webhooks.findSubscription(organisationId, id);
    return s ? this.deps.cipher.decrypt(s.encryptedKey) : undefined;
  }

  async organisation(principal: Principal): Promise<Organisation> {
    const org = await this.deps.storage.repositories.organisations.findById(principal.organisationId);
    if (!org)
      throw systemError("VALIDATION_FAILED", "The organisation has no profile yet: create a subscription first", {
        issues: [{ field: "organisation_id", reason: "has no profile yet", value: principal.organisationId }],
      });
    return org;
  }

  /** Organisation profile: name and is_active. An inactive organisation gets no deliveries. */
  async updateOrganisation(
    principal: Principal,
    changes: { name?: string | undefined; isActive?: boolean | undefined },
  ): Promise<Organisation> {
    if (changes.name !== undefined && (changes.name.trim() === "" || changes.name.length > 200))
      throw DomainError.validation([{ field: "name", reason: "must be 1 to 200 characters" }]);
    const now = this.deps.clock.now();
    return this.deps.storage.transaction(async (tx) => {
      await tx.organisations.ensure({
        id: principal.organisationId,
        name: principal.organisationName ?? `Organisation ${principal.organisationId}`,
        plan: "free",
        now,
      });
      await tx.organisations.updateProfile(
        principal.organisationId,
        { name: changes.name?.trim(), isActive: changes.isActive },
        now,
      );
      return (await tx.organisations.findById(principal.organisationId)) as Organisation;
    });
  }
}
