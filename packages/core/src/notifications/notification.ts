/**
 * Who a notification or a device belongs to; user ids are the integrator's own (spec 2.8: a string). STAFF (a staff
 * member, by staff id) is this service's addition to spec 4.5's two, for the inbox of tasks assigned to staff.
 */
export const USER_TYPES = ["PATIENT", "PROVIDER", "STAFF"] as const;
export type UserType = (typeof USER_TYPES)[number];

export interface Recipient {
  userType: UserType;
  userId: string;
}

/** A browser's Web Push subscription keys (PushSubscription.toJSON().keys), base64url. */
export interface PushKeys {
  /** The browser's ECDH P-256 public key, 65 bytes uncompressed. */
  p256dh: string;
  /** The 16-byte authentication secret. */
  auth: string;
}

/** One browser (or app install) of one user that receives Web Push messages. */
export interface Device extends Recipient {
  /** dev_<uuid> */
  id: string;
  organisationId: number;
  /** The push service URL the browser handed out; unique per organisation. */
  endpoint: string;
  keys: PushKeys;
  /** Free text for people ("Chrome on Pixel 8"). */
  label: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface DeviceDraft {
  userType: string;
  userId: string | number;
  endpoint: string;
  keys: PushKeys;
  label?: string | null | undefined;
}

/**
 * Where a notification's pushes stand: queued until the delivery job ran,
 * then delivered (every device), partially_delivered, failed (no device took
 * it) or no_devices (the recipient had none: the inbox entry is all there is).
 */
export type NotificationDeliveryStatus = "queued" | "delivered" | "partially_delivered" | "failed" | "no_devices";

/** A notification is also the recipient's in-app inbox entry (readAt). */
export interface Notification extends Recipient {
  /** ntf_<uuid> (spec 2.8). */
  id: string;
  organisationId: number;
  title: string;
  body: string | null;
  link: string | null;
  idempotencyKey: string | null;
  deliveryStatus: NotificationDeliveryStatus;
  readAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A notification as a client sends it; the rules (assertValidNotification) name each missing or bad field. */
export interface NotificationDraft {
  recipient?: { userType?: string | undefined; userId?: string | number | undefined } | undefined;
  title?: string | undefined;
  body?: string | null | undefined;
  link?: string | null | undefined;
  idempotencyKey?: string | null | undefined;
}

/**
 * One notification to one device: pending while attempts go on, then
 * delivered, failed, or expired (the push service answered 404 or 410: the
 * subscription is gone and the device was removed).
 */
export type PushStatus = "pending" | "delivered" | "failed" | "expired";

export interface DevicePush {
  notificationId: string;
  deviceId: string;
  organisationId: number;
  /** The push service's origin (scheme, host, port): enough to tell services apart, never the full endpoint. */
  pushService: string;
  status: PushStatus;
  attempts: number;
  lastStatusCode: number | null;
  /** Why it failed (the last attempt's error, or why retrying stopped); null otherwise. */
  error: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** What one attempt meant: sent, worth retrying, the subscription is gone, or refused for good. */
export type PushOutcome = "delivered" | "retry" | "expired" | "rejected";

export interface PushAttempt {
  notificationId: string;
  deviceId: string;
  /** 1-based, per device. */
  attempt: number;
  at: Date;
  statusCode: number | null;
  retryAfterSeconds: number | null;
  durationMs: number;
  outcome: PushOutcome;
  error: string | null;
}
