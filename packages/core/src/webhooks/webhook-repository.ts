import type { StoredSubscription } from "./webhook-subscription.js";
import type { WebhookAttempt, WebhookDelivery } from "./webhook-delivery.js";

export type SubscriptionRecord = Omit<StoredSubscription, "id">;

/** A delivery and its subscription, read together for an attempt. */
export interface DeliveryForAttempt {
  delivery: WebhookDelivery;
  /** undefined once the subscription was deleted. */
  subscription: StoredSubscription | undefined;
}

/**
 * Subscriptions and their deliveries, scoped by organisation.
 * `lockOrganisation` follows the booking contract (AppointmentRepository):
 * the first call of a subscription write, it serialises the organisation's
 * subscription writes so the duplicate check cannot race.
 */
export interface WebhookRepository {
  lockOrganisation(organisationId: number): Promise<boolean>;
  insertSubscription(record: SubscriptionRecord): Promise<StoredSubscription>;
  findSubscription(organisationId: number, id: number): Promise<StoredSubscription | undefined>;
  listSubscriptions(organisationId: number, filter: { isActive?: boolean | undefined }): Promise<StoredSubscription[]>;
  updateSubscription(s: StoredSubscription): Promise<void>;
  deleteSubscription(organisationId: number, id: number): Promise<boolean>;
  /** Active subscriptions of active organisations that take this event type. */
  subscribersOf(organisationId: number, eventType: string): Promise<StoredSubscription[]>;

  /**
   * Inserts the deliveries (the fan-out's batch, in as few statements as the
   * engine allows), each unless its (subscription, outbox event) already has a
   * delivery, without aborting the transaction. Returns the deliveries it
   * inserted, with their ids, in input order. Each input must carry a fresh `eventId`.
   */
  insertDeliveries(ds: Omit<WebhookDelivery, "id">[]): Promise<WebhookDelivery[]>;
  findDelivery(organisationId: number, id: number): Promise<WebhookDelivery | undefined>;
  /**
   * Each delivery with its subscription (undefined when deleted), for many at once in one read: what attempts
   * need. Ids that are not found are absent from the map.
   */
  findDeliveriesForAttempt(ids: number[]): Promise<Map<number, DeliveryForAttempt>>;
  /** Writes each delivery's status, attempts, next attempt, last status code and updated_at, in as few statements as the engine allows. */
  updateDeliveries(ds: WebhookDelivery[]): Promise<void>;
  listDeliveries(
    organisationId: number,
    subscriptionId: number,
    filter: { status?: WebhookDelivery["status"] | undefined; limit: number; offset: number },
  ): Promise<{ deliveries: WebhookDelivery[]; total: number }>;
  /** Stores attempts, in as few statements as the engine allows. */
  appendAttempts(as: WebhookAttempt[]): Promise<void>;
  attempts(deliveryId: number): Promise<WebhookAttempt[]>;
}
