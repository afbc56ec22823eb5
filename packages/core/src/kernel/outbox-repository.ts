import type { DomainEvent } from "../events/event-catalog.js";

/** A stored outbox row. */
export interface OutboxEntry extends DomainEvent {
  id: number;
  dispatchedAt: Date | null;
}

/**
 * The transactional outbox. `append` must be called with the repositories of
 * the same transaction as the change it reports, so the event commits or rolls
 * back with it. A dispatcher (webhooks issue) reads undispatched rows in id order.
 */
export interface OutboxRepository {
  append(event: DomainEvent): Promise<void>;
  /** Undispatched events in id order, oldest first, at most `limit`. */
  listPending(limit: number): Promise<OutboxEntry[]>;
  /** Marks the events handed to the webhook fan-out. */
  markDispatched(ids: number[], at: Date): Promise<void>;
}
