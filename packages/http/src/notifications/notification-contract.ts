import {
  NOTIFICATION_LIMITS,
  USER_TYPES,
  type Device,
  type DevicePush,
  type Notification,
  type PushAttempt,
} from "@openpractice/core";
import type { FieldNames } from "../contracts/field-names.js";
import { routeGroup, scopePair } from "../define-route.js";
import {
  arrayOf,
  boolean,
  dateTime,
  dateTimeOrNull,
  described,
  integer,
  integerOrNull,
  oneOfStrings,
  replyObject,
  plainText,
  textOrNull,
} from "../openapi/reply-schemas.js";
import type { JsonSchema } from "../validation/json-schema.js";

const userId = {
  type: ["string", "integer"],
  maxLength: NOTIFICATION_LIMITS.userIdMax,
  description: "Your id of the user (a string; integers are taken as their decimal form)",
} as const;
const userType = {
  type: "string",
  maxLength: 20,
  description: "PATIENT, PROVIDER or STAFF (a staff member, by staff id), in any case",
} as const;
const optionalText = (max: number, description: string) =>
  ({
    type: ["string", "null"],
    maxLength: max,
    description,
  }) as const;

/**
 * Spec 4.5. `recipient` and `notification` are required, but left to the core
 * rules so that a missing object is reported by its required leaves
 * (recipient.user_id, recipient.user_type, notification.title), as spec 7.3 names them.
 */
const recipientObject = {
  type: "object",
  additionalProperties: false,
  required: ["user_id", "user_type"],
  properties: { user_id: userId, user_type: userType },
} as const;
export const recipientSchema = { $id: "NotificationRecipient", ...recipientObject } as const;

export const deliverSchema = {
  $id: "NotificationDeliver",
  type: "object",
  additionalProperties: false,
  description: "recipient (user_id, user_type) and notification.title are required.",
  properties: {
    recipient: recipientObject,
    notification: {
      type: "object",
      additionalProperties: false,
      required: ["title"],
      properties: {
        title: {
          type: "string",
          maxLength: NOTIFICATION_LIMITS.titleMax,
          description: "Push title and inbox title: shown on lock screens, so no health information",
        },
        body: optionalText(NOTIFICATION_LIMITS.bodyMax, "Push body: shown on lock screens, so no health information"),
        link: optionalText(NOTIFICATION_LIMITS.linkMax, "Deep link, e.g. type=appointment&appointment_id=7"),
      },
    },
    idempotency_key: {
      type: ["string", "null"],
      minLength: 1,
      maxLength: NOTIFICATION_LIMITS.idempotencyKeyMax,
      description: "Requests of one organisation with the same key give one notification",
    },
  },
} as const;

/** A device: the user and the browser's PushSubscription.toJSON() (endpoint, expirationTime, keys) side by side. */
export const deviceRegisterSchema = {
  $id: "PushDeviceRegister",
  type: "object",
  additionalProperties: false,
  required: ["user_id", "user_type", "endpoint", "keys"],
  properties: {
    user_id: userId,
    user_type: userType,
    endpoint: { type: "string", maxLength: NOTIFICATION_LIMITS.endpointMax, description: "PushSubscription.endpoint" },
    keys: {
      type: "object",
      additionalProperties: false,
      required: ["p256dh", "auth"],
      properties: {
        p256dh: { type: "string", maxLength: 200, description: "base64url P-256 public key" },
        auth: { type: "string", maxLength: 100, description: "base64url 16-byte auth secret" },
      },
    },
    expirationTime: { type: ["number", "null"], description: "As PushSubscription.toJSON() sends it; not used" },
    label: optionalText(NOTIFICATION_LIMITS.labelMax, "For people, e.g. 'Chrome on Pixel 8'"),
  },
} as const;

const recipientQuery = {
  user_type: { type: "string", description: "PATIENT, PROVIDER or STAFF (a staff member, by staff id), in any case" },
  user_id: { type: "string", description: "The user's id" },
} as const;
export const devicesQuery = {
  type: "object",
  additionalProperties: false,
  required: ["user_type", "user_id"],
  properties: recipientQuery,
} as const;
export const inboxQuery = {
  type: "object",
  additionalProperties: false,
  required: ["user_type", "user_id"],
  properties: {
    ...recipientQuery,
    unread: { type: "boolean", description: "true: unread entries only" },
    page: { type: "integer", minimum: 1, default: 1 },
    size: { type: "integer", minimum: 1, maximum: 100, default: 20 },
  },
} as const;

export const NOTIFICATION_FIELDS: FieldNames = Object.freeze({
  userId: "user_id",
  userType: "user_type",
  idempotencyKey: "idempotency_key",
});

export const NOTIFICATIONS_PATH = "/apis/v1/notifications";

/** What every notification and device route shares: like the webhook API, resources as bodies and v2-shaped errors. */
export const notificationRoute = routeGroup({
  contract: "v2",
  tags: ["Notifications"],
  auth: true,
  scopes: scopePair("notifications"),
  fieldNames: NOTIFICATION_FIELDS,
});

/** OpenAPI schemas of the replies. */
export const ERROR_BODY: JsonSchema = { $ref: "#/components/schemas/V2Error" };

const recipientReply = replyObject(
  { user_id: described(plainText, "Your id of the user"), user_type: oneOfStrings(USER_TYPES) },
  { title: "NotificationRecipient" },
);

/** A push device (deviceView); its keys are never shown. */
export const DEVICE_SCHEMA: JsonSchema = replyObject(
  {
    device_id: described(plainText, "dev_<uuid>"),
    user_id: plainText,
    user_type: oneOfStrings(USER_TYPES),
    endpoint: described(plainText, "The push service URL the browser handed out"),
    label: textOrNull,
    created_at: dateTime,
    updated_at: dateTime,
  },
  { title: "PushDevice" },
);

/** An entry of a user's inbox (inboxEntryView). */
export const INBOX_ENTRY_SCHEMA: JsonSchema = replyObject(
  {
    notification_id: described(plainText, "ntf_<uuid>"),
    title: plainText,
    body: textOrNull,
    link: textOrNull,
    is_read: boolean,
    read_at: dateTimeOrNull,
    created_at: dateTime,
  },
  { title: "InboxEntry" },
);

/** A notification with each device's delivery and its attempt log (notificationView). */
export const NOTIFICATION_SCHEMA: JsonSchema = replyObject(
  {
    notification_id: described(plainText, "ntf_<uuid>"),
    recipient: recipientReply,
    notification: replyObject({ title: plainText, body: textOrNull, link: textOrNull }),
    idempotency_key: textOrNull,
    delivery_status: oneOfStrings(["queued", "delivered", "partially_delivered", "failed", "no_devices"]),
    read_at: dateTimeOrNull,
    created_at: dateTime,
    updated_at: dateTime,
    deliveries: arrayOf(
      replyObject(
        {
          device_id: plainText,
          push_service: described(plainText, "The push service's origin, never the full endpoint"),
          status: oneOfStrings(["pending", "delivered", "failed", "expired"]),
          attempts: integer,
          last_status: integerOrNull,
          error: textOrNull,
          updated_at: dateTime,
          attempt_log: arrayOf(
            replyObject(
              {
                attempt: integer,
                attempted_at: dateTime,
                status: integerOrNull,
                outcome: oneOfStrings(["delivered", "retry", "expired", "rejected"]),
                retry_after_seconds: integerOrNull,
                duration_ms: integer,
                error: textOrNull,
              },
              { title: "PushAttempt" },
            ),
          ),
        },
        { title: "PushDelivery" },
      ),
    ),
  },
  { title: "Notification" },
);

/** The answer of deliver: accepted, delivered in the background. */
export const ACCEPTED_SCHEMA: JsonSchema = replyObject(
  { notification_id: described(plainText, "ntf_<uuid>"), status: { type: "string", const: "accepted" } },
  { title: "NotificationAccepted" },
);

export const deviceView = (d: Device) => ({
  device_id: d.id,
  user_id: d.userId,
  user_type: d.userType,
  endpoint: d.endpoint,
  label: d.label,
  created_at: d.createdAt.toISOString(),
  updated_at: d.updatedAt.toISOString(),
});

export const inboxEntryView = (n: Notification) => ({
  notification_id: n.id,
  title: n.title,
  body: n.body,
  link: n.link,
  is_read: n.readAt !== null,
  read_at: n.readAt?.toISOString() ?? null,
  created_at: n.createdAt.toISOString(),
});

const attemptView = (a: PushAttempt) => ({
  attempt: a.attempt,
  attempted_at: a.at.toISOString(),
  status: a.statusCode,
  outcome: a.outcome,
  retry_after_seconds: a.retryAfterSeconds,
  duration_ms: a.durationMs,
  error: a.error,
});

/** A notification with each device's delivery and its attempt log. */
export const notificationView = (n: Notification, pushes: Array<{ push: DevicePush; attempts: PushAttempt[] }>) => ({
  notification_id: n.id,
  recipient: { user_id: n.userId, user_type: n.userType },
  notification: { title: n.title, body: n.body, link: n.link },
  idempotency_key: n.idempotencyKey,
  delivery_status: n.deliveryStatus,
  read_at: n.readAt?.toISOString() ?? null,
  created_at: n.createdAt.toISOString(),
  updated_at: n.updatedAt.toISOString(),
  deliveries: pushes.map(({ push, attempts }) => ({
    device_id: push.deviceId,
    push_service: push.pushService,
    status: push.status,
    attempts: push.attempts,
    last_status: push.lastStatusCode,
    error: push.error,
    updated_at: push.updatedAt.toISOString(),
    attempt_log: attempts.map(attemptView),
  })),
});
