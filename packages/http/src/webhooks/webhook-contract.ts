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
