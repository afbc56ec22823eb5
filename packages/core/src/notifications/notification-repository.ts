import type {
  Device,
  DevicePush,
  Notification,
  NotificationDeliveryStatus,
  PushAttempt,
  Recipient,
} from "./notification.js";

/**
 * Devices, notifications (each one also an inbox entry), and the pushes and
 * attempts of their delivery. Every read and write is scoped by organisation
 * except the by-id reads the delivery job uses.
 */
export interface NotificationRepository {
  /**
   * Inserts the device or, when the organisation already has a device with this
   * endpoint, gives that device the new user, keys and label (the browser
   * subscribed again, or another user signed in on it), keeping its id and
   * createdAt. A unique key on (organisation, endpoint) makes concurrent
   * registrations of one endpoint end with one device.
   */
  upsertDevice(device: Device): Promise<{ device: Device; created: boolean }>;
  findDevice(organisationId: number, id: string): Promise<Device | undefined>;
  /** The recipient's devices, oldest first. */
  listDevices(organisationId: number, recipient: Recipient): Promise<Device[]>;
  deleteDevice(organisationId: number, id: string): Promise<boolean>;

  /**
   * Inserts the notification unless the organisation already has one with the
   * same idempotency key (null keys never clash); resolves true when inserted.
   * A unique key decides, never a read before the write, so of concurrent
   * inserts with one key exactly one succeeds; the others resolve false
   * without raising (an enclosing transaction stays usable).
   */
  insertNotification(notification: Notification): Promise<boolean>;
  findNotification(organisationId: number, id: string): Promise<Notification | undefined>;
  /** For the delivery job, which carries only the id. */
  findNotificationById(id: string): Promise<Notification | undefined>;
  findByIdempotencyKey(organisationId: number, key: string): Promise<Notification | undefined>;
  setDeliveryStatus(id: string, status: NotificationDeliveryStatus, at: Date): Promise<void>;
  /** The recipient's notifications, newest first (ties by id), with the total and the unread count. */
  listInbox(
    organisationId: number,
    recipient: Recipient,
    filter: { unreadOnly: boolean; limit: number; offset: number },
  ): Promise<{ entries: Notification[]; total: number; unread: number }>;
  /** Sets readAt unless already set (the first read time stays); undefined when there is no such notification. */
  markRead(organisationId: number, id: string, at: Date): Promise<Notification | undefined>;
  /** Marks every unread notification of the recipient read; returns how many changed. */
  markAllRead(organisationId: number, recipient: Recipient, at: Date): Promise<number>;

  /** Inserts unless the (notification, device) push exists, so a re-run delivery job adds nothing twice. */
  insertPush(push: DevicePush): Promise<void>;
  /** A notification's pushes in the order they were created. */
  listPushes(notificationId: string): Promise<DevicePush[]>;
  updatePush(push: DevicePush): Promise<void>;
  appendAttempt(attempt: PushAttempt): Promise<void>;
  /** Every attempt of a notification's pushes, in the order they were made. */
  attempts(notificationId: string): Promise<PushAttempt[]>;
}
