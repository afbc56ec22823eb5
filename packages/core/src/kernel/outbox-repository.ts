import type { OutboxEvent } from "./events.js";

/** A stored outbox row. */
export interface OutboxEntry extends OutboxEvent {
  id: number;
  dispatchedAt: Date | null;
}

/**
 * The transactional outbox. `append` must be called with the repositories of
 * the same transaction as the change it reports, so the event commits or rolls
 * back with it. A dispatcher (webhooks issue) reads undispatched rows in id order.
 */
export interface OutboxRepository {
  append(event: OutboxEvent): Promise<void>;
  /** Undispatched events in id order, oldest first, at most `limit`. */
  listPending(limit: number): Promise<OutboxEntry[]>;
  /** Marks the events handed to the webhook fan-out. */
  markDispatched(ids: number[], at: Date): Promise<void>;
}
