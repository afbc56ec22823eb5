import type { DevicePush, NotificationDeliveryStatus, PushOutcome } from "./notification.js";
import type { PushSendResult } from "./push-transport.js";

/** The job queue notifications are delivered on; its payload is `{ notificationId }`. */
export const NOTIFICATION_DELIVERY_QUEUE = "notifications.deliver";

/** How long a push service keeps a message for an offline device (the TTL header): a day, after which a reminder is stale. */
export const PUSH_TTL_SECONDS = 86_400;

/**
 * What a push service's answer means (RFC 8030 and the services' own rules):
 * 2xx sent; 404 or 410 the subscription no longer exists, so the device goes;
 * 429 (too many requests), 5xx and no answer at all are worth another try;
 * any other status (400 malformed, 403 wrong VAPID key, 413 too large) will
 * not change by sending the same message again.
 */
export function classifyPush(result: PushSendResult): PushOutcome {
  const status = result.statusCode;
  if (status !== null && status >= 200 && status < 300) return "delivered";
  if (status === 404 || status === 410) return "expired";
  if (result.permanent) return "rejected";
  if (status === null || status === 429 || status >= 500) return "retry";
  return "rejected";
}

/** A notification's status from its pushes once the delivery job is done with them. */
export function summariseDelivery(pushes: readonly DevicePush[]): NotificationDeliveryStatus {
  if (pushes.length === 0) return "no_devices";
  const delivered = pushes.filter((p) => p.status === "delivered").length;
  if (delivered === pushes.length) return "delivered";
  return delivered > 0 ? "partially_delivered" : "failed";
}
