import {
  eventDataSchema,
  eventDescriptions,
  eventPayloadFields,
  LATEST_WEBHOOK_API_VERSION,
  MAX_KEY_ROTATION_GRACE_SECONDS,
  SIGNATURE_FORMATS,
  standardWebhooksSecret,
  WEBHOOK_API_VERSIONS,
  type EventType,
  type Organisation,
  type SubscriptionWithKey,
  type TransportResult,
  type WebhookAttempt,
  type WebhookDelivery,
  type WebhookSubscription,
} from "@openpractice/core";
import type { FieldNames } from "../contracts/field-names.js";
import { rotationBodySchema } from "../contracts/rotation-body.js";
import { V1_CURRENT_PAGE_PAGINATION_SCHEMA } from "../contracts/v1-contract.js";
import {
  anyObject,
  arrayOf,
  boolean,
  dateTime,
  dateTimeOrNull,
  described,
  idText,
  integer,
  integerOrNull,
  oneOfStrings,
  replyObject,
  plainText,
  textOrNull,
} from "../openapi/reply-schemas.js";
import type { JsonSchema } from "../validation/json-schema.js";

const eventTypes = { type: "array", items: { type: "string", minLength: 1, maxLength: 64 }, maxItems: 50 } as const;

export const subscriptionCreateSchema = {
  $id: "WebhookSubscriptionCreate",
  type: "object",
  additionalProperties: false,
  required: ["name", "event_types", "notification_url"],
  properties: {
    name: { type: "string", maxLength: 200 },
    event_types: eventTypes,
    notification_url: { type: "string", maxLength: 2048 },
    api_version: {
      type: "string",
      maxLength: 20,
      description: `Pinned payload version; default and latest ${LATEST_WEBHOOK_API_VERSION}`,
    },
    signature_format: {
      type: "string",
      enum: [...SIGNATURE_FORMATS],
      description:
        "service (default): X-Service-Signature; standard: the Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature)",
    },
  },
} as const;

export const rotateSecretSchema = rotationBodySchema(
  "WebhookRotateSecret",
  MAX_KEY_ROTATION_GRACE_SECONDS,
  "How long the old key keeps signing beside the new one (every delivery carries both signatures meanwhile). Default 0: the old key is invalid at once (spec rule 5), unless the server sets another default",
);

export const subscriptionUpdateSchema = {
  $id: "WebhookSubscriptionUpdate",
  type: "object",
  additionalProperties: false,
  minProperties: 1,
  properties: { ...subscriptionCreateSchema.properties, is_active: { type: "boolean" } },
} as const;

export const eventListSchema = {
  $id: "WebhookEventList",
  type: "object",
  additionalProperties: false,
  required: ["event_types"],
  properties: { event_types: eventTypes },
} as const;

export const organisationUpdateSchema = {
  $id: "WebhookOrganisationUpdate",
  type: "object",
  additionalProperties: false,
  minProperties: 1,
  properties: { name: { type: "string", maxLength: 200 }, is_active: { type: "boolean" } },
} as const;

export const WEBHOOK_FIELDS: FieldNames = Object.freeze({
  eventTypes: "event_types",
  notificationUrl: "notification_url",
  apiVersion: "api_version",
  isActive: "is_active",
  signatureFormat: "signature_format",
  gracePeriodSeconds: "grace_period_seconds",
});

export const subscriptionView = (s: WebhookSubscription) => ({
  id: String(s.id),
  organisation_id: String(s.organisationId),
  name: s.name,
  event_types: s.eventTypes,
  notification_url: s.notificationUrl,
  api_version: s.apiVersion,
  is_active: s.isActive,
  signature_format: s.signatureFormat,
  previous_key_expires_at: s.previousKeyExpiresAt?.toISOString() ?? null,
  created_at: s.createdAt.toISOString(),
  updated_at: s.updatedAt.toISOString(),
});

export const KEY_SHOWN_ONCE =
  "Store the signature_key now: it is shown only once. It signs every delivery (X-Service-Signature).";

/**
 * What create and rotate answer besides the subscription: the key, and for Standard Webhooks subscriptions the
 * same key in that format's `whsec_` form, which its libraries take.
 */
export const issuedKeyView = (issued: SubscriptionWithKey) => ({
  subscription: subscriptionView(issued.subscription),
  signature_key: issued.signatureKey,
  ...(issued.subscription.signatureFormat === "standard"
    ? { standard_webhooks_secret: standardWebhooksSecret(issued.signatureKey) }
    : {}),
  message: KEY_SHOWN_ONCE,
});

export const resultView = (r: TransportResult) => ({
  status: r.statusCode,
  duration_ms: r.durationMs,
  error: r.error,
  response_excerpt: r.responseExcerpt,
});

export const attemptView = (a: WebhookAttempt) => ({
  attempt: a.attempt,
  delivery_attempt_id: a.attemptId,
  attempted_at: a.at.toISOString(),
  status: a.statusCode,
  duration_ms: a.durationMs,
  error: a.error,
  response_excerpt: a.responseExcerpt,
});

export const deliveryView = (d: WebhookDelivery, attempts: WebhookAttempt[]) => ({
  id: String(d.id),
  subscription_id: String(d.subscriptionId),
  event_id: d.eventId,
  event_type: d.eventType,
  api_version: d.apiVersion,
  data: d.data,
  status: d.status,
  attempts: d.attempts,
  next_attempt_at: d.nextAttemptAt?.toISOString() ?? null,
  last_status: d.lastStatusCode,
  created_at: d.createdAt.toISOString(),
  updated_at: d.updatedAt.toISOString(),
  attempt_log: attempts.map(attemptView),
});

export const organisationView = (o: Organisation) => ({
  organisation_id: String(o.id),
  name: o.name,
  is_active: o.isActive,
  created_at: o.createdAt.toISOString(),
  updated_at: o.updatedAt.toISOString(),
});

/** The event catalog with each payload's JSON Schema (GET /apis/v1/webhooks/event-types). */
export function eventCatalogView() {
  return {
    api_versions: [...WEBHOOK_API_VERSIONS],
    latest_api_version: LATEST_WEBHOOK_API_VERSION,
    event_types: (Object.keys(eventPayloadFields()) as EventType[]).map((t) => ({
      event_type: t,
      description: eventDescriptions()[t],
      data_schema: eventDataSchema(t),
    })),
  };
}

/** A subscription as the API shows it (subscriptionView): never its key. */
export const subscriptionSchema: JsonSchema = replyObject(
  {
    id: idText,
    organisation_id: idText,
    name: plainText,
    event_types: arrayOf(plainText),
    notification_url: plainText,
    api_version: described(plainText, "The pinned payload version"),
    is_active: boolean,
    signature_format: oneOfStrings(SIGNATURE_FORMATS),
    previous_key_expires_at: described(
      dateTimeOrNull,
      "Until then deliveries are signed with the key rotated out too; else null",
    ),
    created_at: dateTime,
    updated_at: dateTime,
  },
  { title: "WebhookSubscription" },
);

/** What create and rotate-secret answer (issuedKeyView): the subscription and its key, shown once. */
export const issuedKeySchema: JsonSchema = replyObject(
  {
    subscription: subscriptionSchema,
    signature_key: described(plainText, "Signs every delivery; shown only once"),
    standard_webhooks_secret: described(
      plainText,
      "signature_format standard only: the same key in the Standard Webhooks whsec_ form its libraries take",
    ),
    message: plainText,
  },
  { title: "WebhookSubscriptionKey", optional: ["standard_webhooks_secret"] },
);

const RESULT_PROPERTIES = {
  status: described(integerOrNull, "The receiver's HTTP status; null when it gave none"),
  duration_ms: integer,
  error: textOrNull,
  response_excerpt: textOrNull,
} as const;

/** A delivery with its attempts (deliveryView). */
export const deliverySchema: JsonSchema = replyObject(
  {
    id: idText,
    subscription_id: idText,
    event_id: described(plainText, "evt_<uuid>: the receiver's idempotency key, the same on every attempt"),
    event_type: plainText,
    api_version: plainText,
    data: described(anyObject, "The event's data"),
    status: oneOfStrings(["pending", "delivered", "failed"]),
    attempts: integer,
    next_attempt_at: dateTimeOrNull,
    last_status: integerOrNull,
    created_at: dateTime,
    updated_at: dateTime,
    attempt_log: arrayOf(
      replyObject(
        {
          attempt: integer,
          delivery_attempt_id: described(plainText, "X-Delivery-Id of this attempt"),
          attempted_at: dateTime,
          ...RESULT_PROPERTIES,
        },
        { title: "WebhookAttempt" },
      ),
    ),
  },
  { title: "WebhookDelivery" },
);

/** The answer of the test delivery: the payload sent and what the receiver said. */
export const testDeliverySchema: JsonSchema = replyObject({
  payload: replyObject(
    {
      event_id: plainText,
      event_type: plainText,
      api_version: plainText,
      timestamp: described(integer, "Unix seconds"),
      data: anyObject,
      test: boolean,
    },
    { title: "WebhookEnvelope" },
  ),
  delivery_id: plainText,
  result: replyObject(RESULT_PROPERTIES, { title: "WebhookTransportResult" }),
});

/** The deliveries page. */
export const deliveriesPageSchema: JsonSchema = replyObject({
  deliveries: arrayOf(deliverySchema),
  pagination: V1_CURRENT_PAGE_PAGINATION_SCHEMA,
});

/** The organisation profile of the webhook API (organisationView). */
export const webhookOrganisationSchema: JsonSchema = replyObject(
  { organisation_id: idText, name: plainText, is_active: boolean, created_at: dateTime, updated_at: dateTime },
  { title: "WebhookOrganisation" },
);

/** The event catalog (eventCatalogView). */
export const eventCatalogSchema: JsonSchema = replyObject(
  {
    api_versions: arrayOf(plainText),
    latest_api_version: plainText,
    event_types: arrayOf(
      replyObject(
        {
          event_type: plainText,
          description: plainText,
          data_schema: described(anyObject, "The JSON Schema of the event's data"),
        },
        { title: "WebhookEventType" },
      ),
    ),
  },
  { title: "WebhookEventCatalog" },
);
