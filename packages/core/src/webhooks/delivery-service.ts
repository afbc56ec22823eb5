import { systemError } from "../kernel/system-errors.js";
import { webhookError } from "./webhook-errors.js";
import type { Principal } from "../auth/principal.js";
import type { Clock } from "../kernel/clock.js";
import type { EventCatalogue } from "../kernel/event-catalogue.js";
import type { Ids } from "../kernel/ids.js";
import { toPageWindow } from "../kernel/paging.js";
import type { Storage } from "../kernel/storage.js";
import type { WebhookServiceRepositories } from "./webhook-service-repositories.js";
import type { DeliveryForAttempt } from "./webhook-repository.js";
import { nextAttemptAt, WEBHOOK_TIMEOUT_MS } from "./delivery-schedule.js";
import type { SecretCipher } from "./secret-cipher.js";
import type {
  DeliveryStatus,
  TransportResult,
  WebhookAttempt,
  WebhookDelivery,
  WebhookEnvelope,
  WebhookTransport,
} from "./webhook-delivery.js";
import { subscriptionNotFound } from "./webhook-service.js";
import { signWebhook, standardWebhookHeaders } from "./webhook-signature.js";
import { signingKeysOf } from "./webhook-service.js";
import type { StoredSubscription } from "./webhook-subscription.js";

/** The job queue deliveries run on; its payload is `{ deliveryId }`. */
export const WEBHOOK_DELIVERY_QUEUE = "webhooks.deliver";
export const WEBHOOK_USER_AGENT = "WebhookService/2.0";

/** A sent attempt waiting to be recorded (WebhookDeliveryService.sendAttempt → recordAttempts). */
export interface AttemptOutcome {
  delivery: WebhookDelivery;
  /** false when the subscription was deleted or deactivated: nothing was sent and no retry follows. */
  subscriptionLive: boolean;
  attemptId: string;
  result: TransportResult;
  at: Date;
}

const isSuccess = (r: TransportResult) => r.statusCode !== null && r.statusCode >= 200 && r.statusCode < 300;

/**
 * Turns outbox events into signed deliveries: the fan-out copies each event to
 * the matching active subscriptions as delivery rows and queued jobs (in one
 * transaction with marking the event dispatched); a job sends one attempt and,
 * on failure, queues the next attempt on the retry schedule.
 */
export class WebhookDeliveryService {
  constructor(
    private readonly deps: {
      storage: Storage<WebhookServiceRepositories>;
      clock: Clock;
      ids: Ids;
      cipher: SecretCipher;
      transport: WebhookTransport;
      /** The practice's event types: a test delivery sends a sample of one. */
      events: EventCatalogue;
    },
  ) {}

  /** Fans out up to `limit` undispatched events; returns how many events it handled. Run it under a store lock (one process at a time). */
  async fanOut(limit = 200): Promise<number> {
    const now = this.deps.clock.now();
    return this.deps.storage.transaction(async (tx) => {
      const events = await tx.outbox.listPending(limit);
      // A batch is mostly a few organisations and types: look each pair's subscribers up once.
      const subscribers = new Map<string, Promise<StoredSubscription[]>>();
      const subscribersOf = (org: number, type: string) => {
        const key = `${org}|${type}`;
        if (!subscribers.has(key)) subscribers.set(key, tx.webhooks.subscribersOf(org, type));
        return subscribers.get(key)!;
      };
      const drafts: Omit<WebhookDelivery, "id">[] = [];
      for (const event of events) {
        for (const s of await subscribersOf(event.organisationId, event.eventType)) {
          drafts.push({
            organisationId: event.organisationId,
            subscriptionId: s.id,
            outboxId: event.id,
            eventId: `evt_${this.deps.ids.uuid()}`,
            eventType: event.eventType,
            apiVersion: s.apiVersion,
            data: event.data as Record<string, unknown>,
            status: "pending",
            attempts: 0,
            nextAttemptAt: now,
            lastStatusCode: null,
            createdAt: now,
            updatedAt: now,
          });
        }
      }
      // The whole batch in a few statements: the deliveries, then their first attempts' jobs.
      const inserted = drafts.length ? await tx.webhooks.insertDeliveries(drafts) : [];
      await tx.jobs.enqueueMany(
        inserted.map((d) => ({ queue: WEBHOOK_DELIVERY_QUEUE, payload: { deliveryId: d.id }, runAt: now })),
      );
      if (events.length)
        await tx.outbox.markDispatched(
          events.map((e) => e.id),
          now,
        );
      return events.length;
    });
  }

  private envelope(
    d: Pick<WebhookDelivery, "eventId" | "eventType" | "apiVersion" | "data">,
    test: boolean,
  ): WebhookEnvelope {
    return {
      event_id: d.eventId,
      event_type: d.eventType,
      api_version: d.apiVersion,
      timestamp: Math.floor(this.deps.clock.now().getTime() / 1000),
      data: d.data,
      test,
    };
  }

  /** POSTs one signed envelope, signed with the subscription's key as it is now (so a rotation re-signs retries). */
  private async send(
    s: StoredSubscription,
    envelope: WebhookEnvelope,
    attemptId: string,
  ): Promise<{ result: TransportResult; body: string }> {
    const body = JSON.stringify(envelope);
    const keys = signingKeysOf(s, this.deps.cipher, this.deps.clock.now());
    const signature =
      s.signatureFormat === "standard"
        ? standardWebhookHeaders(keys, envelope.event_id, envelope.timestamp, body)
        : { "x-service-signature": signWebhook(keys, envelope.timestamp, body) };
    const headers = {
      "content-type": "application/json",
      "user-agent": WEBHOOK_USER_AGENT,
      ...signature,
      "x-event-type": envelope.event_type,
      "x-event-id": envelope.event_id,
      "x-delivery-id": attemptId,
      "x-service-api-version": envelope.api_version,
    };
    return {
      result: await this.deps.transport.post({ url: s.notificationUrl, headers, body, timeoutMs: WEBHOOK_TIMEOUT_MS }),
      body,
    };
  }

  /** What attempts of these deliveries need, in one read. */
  findForAttempts(deliveryIds: number[]): Promise<Map<number, DeliveryForAttempt>> {
    return this.deps.storage.repositories.webhooks.findDeliveriesForAttempt(deliveryIds);
  }

  /**
   * The sending half of an attempt: reads the pending delivery and its
   * subscription and POSTs the signed envelope (a delivery whose subscription
   * was deleted or deactivated is not sent). Nothing is written: pass the
   * outcome to recordAttempts, alone or with others in one transaction.
   * "skipped" means the delivery is gone or no longer pending. `load` reads
   * the delivery; a caller sending many at once passes one that batches the
   * reads (findForAttempts).
   */
  async sendAttempt(
    deliveryId: number,
    load: (id: number) => Promise<DeliveryForAttempt | undefined> = (id) =>
      this.findForAttempts([id]).then((m) => m.get(id)),
  ): Promise<AttemptOutcome | "skipped"> {
    const found = await load(deliveryId);
    if (!found || found.delivery.status !== "pending") return "skipped";
    const { delivery, subscription: s } = found;
    const attemptId = this.deps.ids.uuid();
    const live = s !== undefined && s.isActive;
    const result: TransportResult = !live
      ? { statusCode: null, durationMs: 0, error: "subscription deleted or inactive: not sent", responseExcerpt: null }
      : (await this.send(s, this.envelope(delivery, false), attemptId)).result;
    return { delivery, subscriptionLive: live, attemptId, result, at: this.deps.clock.now() };
  }

  /**
   * The recording half, for any number of attempts in the caller's
   * transaction: each attempt is stored; on failure the next one is queued on
   * the schedule, or the delivery is failed after the sixth.
   */
  async recordAttempts(tx: WebhookServiceRepositories, outcomes: AttemptOutcome[]): Promise<void> {
    if (outcomes.length === 0) return;
    const now = this.deps.clock.now();
    const next = outcomes.map((o) =>
      o.subscriptionLive && !isSuccess(o.result) ? nextAttemptAt(o.delivery.attempts + 1, o.at) : undefined,
    );
    await tx.webhooks.appendAttempts(
      outcomes.map((o) => ({
        deliveryId: o.delivery.id,
        attempt: o.delivery.attempts + 1,
        attemptId: o.attemptId,
        at: o.at,
        ...o.result,
      })),
    );
    // One recording time for the batch, so deliveries that ended alike are updated by one statement.
    await tx.webhooks.updateDeliveries(
      outcomes.map((o, i) => {
        const status: DeliveryStatus = isSuccess(o.result) ? "delivered" : next[i] ? "pending" : "failed";
        return {
          ...o.delivery,
          attempts: o.delivery.attempts + 1,
          status,
          nextAttemptAt: next[i] ?? null,
          lastStatusCode: o.result.statusCode,
          updatedAt: now,
        };
      }),
    );
    await tx.jobs.enqueueMany(
      outcomes.flatMap((o, i) =>
        next[i] ? [{ queue: WEBHOOK_DELIVERY_QUEUE, payload: { deliveryId: o.delivery.id }, runAt: next[i]! }] : [],
      ),
    );
  }

  /**
   * One attempt of a pending delivery, sent and recorded in its own
   * transaction (sendAttempt, then recordAttempts), for callers without a
   * batch. "skipped" means nothing was sent: the delivery is gone or no
   * longer pending.
   */
  async attempt(deliveryId: number): Promise<"recorded" | "skipped"> {
    const outcome = await this.sendAttempt(deliveryId);
    if (outcome === "skipped") return "skipped";
    await this.deps.storage.transaction((tx) => this.recordAttempts(tx, [outcome]));
    return "recorded";
  }

  /** Rule 6: a synthetic, signed delivery with test true, sent now; the reply holds the payload and the HTTP result. Nothing is stored. */
  async test(
    principal: Principal,
    subscriptionId: number,
  ): Promise<{ payload: WebhookEnvelope; result: TransportResult; deliveryId: string }> {
    const s = await this.deps.storage.repositories.webhooks.findSubscription(principal.organisationId, subscriptionId);
    if (!s) throw subscriptionNotFound(subscriptionId);
    const eventType = s.eventTypes[0] as string;
    const payload = this.envelope(
      {
        eventId: `evt_${this.deps.ids.uuid()}`,
        eventType,
        apiVersion: s.apiVersion,
        // Every field of the event's published schema, so receivers can validate the test like a real delivery.
        data: this.deps.events.sampleData(eventType, principal.organisationId),
      },
      true,
    );
    const deliveryId = this.deps.ids.uuid();
    const { result } = await this.send(s, payload, deliveryId);
    return { payload, result, deliveryId };
  }

  async list(
    principal: Principal,
    subscriptionId: number,
    q: { status?: DeliveryStatus | undefined; page?: number | undefined; size?: number | undefined },
  ) {
    const r = this.deps.storage.repositories;
    if (!(await r.webhooks.findSubscription(principal.organisationId, subscriptionId)))
      throw subscriptionNotFound(subscriptionId);
    const { page, size, limit, offset } = toPageWindow(q.page, q.size);
    const found = await r.webhooks.listDeliveries(principal.organisationId, subscriptionId, {
      status: q.status,
      limit,
      offset,
    });
    const withAttempts = await Promise.all(
      found.deliveries.map(async (d) => ({ delivery: d, attempts: await r.webhooks.attempts(d.id) })),
    );
    return { deliveries: withAttempts, total: found.total, page, size };
  }

  /** Re-sends a failed delivery: the same event_id, a fresh schedule starting now. */
  async retry(
    principal: Principal,
    subscriptionId: number,
    deliveryId: number,
  ): Promise<{ delivery: WebhookDelivery; attempts: WebhookAttempt[] }> {
    const now = this.deps.clock.now();
    return this.deps.storage.transaction(async (tx: WebhookServiceRepositories) => {
      const d = await tx.webhooks.findDelivery(principal.organisationId, deliveryId);
      if (!d || d.subscriptionId !== subscriptionId)
        throw webhookError("DELIVERY_NOT_FOUND", "Delivery not found", {
          delivery_id: deliveryId,
          subscription_id: subscriptionId,
        });
      if (d.status !== "failed") {
        throw systemError("INVALID_TRANSITION", `Only a failed delivery can be retried; this one is ${d.status}`, {
          delivery_id: d.id,
          current_status: d.status,
          action: "RETRY",
          allowed_actions: [],
        });
      }
      // attempts restart so the whole schedule applies again; the history keeps every earlier attempt.
      const next = { ...d, status: "pending" as const, attempts: 0, nextAttemptAt: now, updatedAt: now };
      await tx.webhooks.updateDeliveries([next]);
      await tx.jobs.enqueue({ queue: WEBHOOK_DELIVERY_QUEUE, payload: { deliveryId: d.id }, runAt: now });
      return { delivery: next, attempts: await tx.webhooks.attempts(d.id) };
    });
  }
}
