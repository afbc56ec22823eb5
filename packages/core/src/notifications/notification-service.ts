import { systemError } from "../kernel/system-errors.js";
import { notificationError } from "./notification-errors.js";
import type { Principal } from "../auth/principal.js";
import type { Clock } from "../kernel/clock.js";
import type { Ids } from "../kernel/ids.js";
import { toPageWindow } from "../kernel/paging.js";
import type { Storage } from "../kernel/storage.js";
import type { NotificationServiceRepositories } from "./notification-service-repositories.js";
import type { DevicePush, Notification, NotificationDraft, PushAttempt } from "./notification.js";
import {
  assertRecipient,
  assertValidNotification,
  type RecipientInput,
  type ValidNotification,
} from "./notification-rules.js";
import { NOTIFICATION_DELIVERY_QUEUE } from "./push-outcome.js";
import type { PushTransport } from "./push-transport.js";

export const notificationNotFound = (id: unknown) =>
  notificationError("NOTIFICATION_NOT_FOUND", "Notification not found", { notification_id: id });

/** The reply of deliver (spec 4.5): always accepted; `replayed` says an earlier request with the same idempotency key made it. */
export interface AcceptedNotification {
  notificationId: string;
  status: "accepted";
  replayed: boolean;
}

const sameContent = (n: Notification, v: ValidNotification) =>
  n.userType === v.recipient.userType &&
  n.userId === v.recipient.userId &&
  n.title === v.title &&
  n.body === v.body &&
  n.link === v.link;

/**
 * Push notifications of the principal's organisation (spec 4.5): deliver
 * validates at once and queues the pushes; each notification is also the
 * recipient's inbox entry. Recipients resolve within the organisation only.
 */
export class NotificationService {
  constructor(
    private readonly deps: {
      storage: Storage<NotificationServiceRepositories>;
      clock: Clock;
      ids: Ids;
      transport: PushTransport;
    },
  ) {}

  /**
   * Stores the notification and queues its delivery in one transaction. With
   * an idempotency key the database's unique key decides who is first: a
   * repeat (even a simultaneous one) gets the first request's id and queues
   * nothing; the same key with other content is IDEMPOTENCY_KEY_REUSED.
   */
  async deliver(principal: Principal, draft: NotificationDraft): Promise<AcceptedNotification> {
    const valid = assertValidNotification(draft);
    const now = this.deps.clock.now();
    const record: Notification = {
      id: `ntf_${this.deps.ids.uuid()}`,
      organisationId: principal.organisationId,
      ...valid.recipient,
      title: valid.title,
      body: valid.body,
      link: valid.link,
      idempotencyKey: valid.idempotencyKey,
      deliveryStatus: "queued",
      readAt: null,
      createdAt: now,
      updatedAt: now,
    };
    const inserted = await this.deps.storage.transaction(async (tx) => {
      if (!(await tx.notifications.insertNotification(record))) return false;
      await tx.jobs.enqueue({ queue: NOTIFICATION_DELIVERY_QUEUE, payload: { notificationId: record.id }, runAt: now });
      return true;
    });
    if (inserted) return { notificationId: record.id, status: "accepted", replayed: false };
    // Read after the losing insert's transaction ended, so the winner's committed row is visible on every engine.
    const first = await this.deps.storage.repositories.notifications.findByIdempotencyKey(
      principal.organisationId,
      valid.idempotencyKey as string,
    );
    if (!first)
      throw new Error(
        `notification with idempotency key of organisation ${principal.organisationId} neither inserted nor found`,
      );
    if (!sameContent(first, valid)) {
      throw systemError(
        "IDEMPOTENCY_KEY_REUSED",
        "This idempotency_key was already used for a different notification; use a new key for new content",
        {
          idempotency_key: valid.idempotencyKey,
          notification_id: first.id,
        },
      );
    }
    return { notificationId: first.id, status: "accepted", replayed: true };
  }

  /** One notification with each device's push and every attempt. */
  async get(
    principal: Principal,
    id: string,
  ): Promise<{ notification: Notification; pushes: Array<{ push: DevicePush; attempts: PushAttempt[] }> }> {
    const r = this.deps.storage.repositories.notifications;
    const notification = await r.findNotification(principal.organisationId, id);
    if (!notification) throw notificationNotFound(id);
    const [pushes, attempts] = await Promise.all([r.listPushes(id), r.attempts(id)]);
    return {
      notification,
      pushes: pushes.map((push) => ({ push, attempts: attempts.filter((a) => a.deviceId === push.deviceId) })),
    };
  }

  /** The recipient's inbox, newest first, paged (page from 1, size 1 to 100, default 20). */
  async inbox(
    principal: Principal,
    recipient: RecipientInput,
    q: { unreadOnly?: boolean | undefined; page?: number | undefined; size?: number | undefined },
  ) {
    const valid = assertRecipient(recipient);
    const { page, size, limit, offset } = toPageWindow(q.page, q.size);
    const found = await this.deps.storage.repositories.notifications.listInbox(principal.organisationId, valid, {
      unreadOnly: q.unreadOnly ?? false,
      limit,
      offset,
    });
    return { ...found, page, size };
  }

  /** Marks one entry read; reading it again keeps the first read time. */
  async markRead(principal: Principal, id: string): Promise<Notification> {
    // Refused inside the transaction, so an audited request's entry is rolled back with it.
    return this.deps.storage.transaction(async (tx) => {
      const read = await tx.notifications.markRead(principal.organisationId, id, this.deps.clock.now());
      if (!read) throw notificationNotFound(id);
      return read;
    });
  }

  async markAllRead(principal: Principal, recipient: RecipientInput): Promise<number> {
    const who = assertRecipient(recipient);
    return this.deps.storage.transaction((tx) =>
      tx.notifications.markAllRead(principal.organisationId, who, this.deps.clock.now()),
    );
  }

  /** The application server key browsers subscribe with (PushManager.subscribe's applicationServerKey). */
  vapidPublicKey(): string {
    const key = this.deps.transport.vapidPublicKey;
    if (!key)
      throw notificationError("PUSH_NOT_CONFIGURED", "Web Push is not configured on this server (no VAPID key)");
    return key;
  }
}
