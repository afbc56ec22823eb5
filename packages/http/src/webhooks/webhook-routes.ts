import { optionalBody } from "../contracts/optional-body.js";
import { jsonResponse } from "../contracts/json-response.js";
import { v1CurrentPagePagination } from "../contracts/v1-contract.js";
import { pathIdKind } from "../contracts/path-id.js";
import { routeGroup, scopePair } from "../define-route.js";
import type { RouteDefinition, RouteDependencies } from "../route.js";
import { arrayOf, replyObject } from "../openapi/reply-schemas.js";
import {
  deliveriesPageSchema,
  deliverySchema,
  deliveryView,
  eventCatalogSchema,
  eventCatalogView,
  eventListSchema,
  organisationUpdateSchema,
  organisationView,
  resultView,
  subscriptionCreateSchema,
  subscriptionUpdateSchema,
  subscriptionView,
  issuedKeySchema,
  issuedKeyView,
  subscriptionSchema,
  testDeliverySchema,
  webhookOrganisationSchema,
  rotateSecretSchema,
  WEBHOOK_FIELDS,
} from "./webhook-contract.js";

export const WEBHOOK_SCOPES = scopePair("webhooks");
const BASE = "/apis/v1/webhooks";
const errorBody = { $ref: "#/components/schemas/V2Error" };

const SUBSCRIPTION_ID = pathIdKind("SUBSCRIPTION_NOT_FOUND", "subscription_id");
const DELIVERY_ID = pathIdKind("DELIVERY_NOT_FOUND", "delivery_id");

/**
 * Spec 4.4. These answer like v2: the resource itself with 200, 201 or 204,
 * and errors as {error: {code, message, details}} with the spec 7.2 codes.
 */
export function webhookRoutes({ practice }: RouteDependencies): RouteDefinition[] {
  const route = routeGroup({
    contract: "v2",
    tags: ["Webhooks"],
    auth: true,
    scopes: WEBHOOK_SCOPES,
    fieldNames: WEBHOOK_FIELDS,
  });
  const errors = {
    "400": { description: "VALIDATION_FAILED, INVALID_API_VERSION or CANNOT_REMOVE_ALL_EVENTS", schema: errorBody },
    "404": { description: "SUBSCRIPTION_NOT_FOUND", schema: errorBody },
    "409": {
      description: "DUPLICATE_SUBSCRIPTION: names the conflicting subscription and the overlapping events",
      schema: errorBody,
    },
  };
  return [
    route({
      method: "GET",
      path: `${BASE}/event-types`,
      operationId: "webhookEventTypes",
      summary: "The event catalog: each event type with a description and the JSON Schema of its data.",
      access: "read",
      responses: { "200": { description: "The catalog", schema: eventCatalogSchema } },
      async handle() {
        return jsonResponse(200, eventCatalogView());
      },
    }),
    route({
      method: "POST",
      path: `${BASE}/subscriptions`,
      operationId: "webhookCreateSubscription",
      summary:
        "Create a subscription; the signature_key is returned once. The first create of a new organisation creates it from the token's claims.",
      access: "write",
      requestBody: subscriptionCreateSchema,
      responses: {
        "201": { description: "The subscription and its signature_key", schema: issuedKeySchema },
        ...errors,
      },
      async handle(ctx) {
        const b = await ctx.body();
        const created = await practice.webhooks.create(ctx.principal, {
          name: b.name,
          eventTypes: b.event_types,
          notificationUrl: b.notification_url,
          apiVersion: b.api_version,
          signatureFormat: b.signature_format,
        });
        return jsonResponse(201, issuedKeyView(created));
      },
    }),
    route({
      method: "GET",
      path: `${BASE}/subscriptions`,
      operationId: "webhookListSubscriptions",
      summary: "The organisation's subscriptions (keys hidden); `is_active=true|false` filters.",
      access: "read",
      query: { type: "object", additionalProperties: false, properties: { is_active: { type: "boolean" } } },
      responses: {
        "200": {
          description: "The subscriptions",
          schema: replyObject({ subscriptions: arrayOf(subscriptionSchema) }),
        },
      },
      async handle(ctx) {
        return jsonResponse(200, {
          subscriptions: (await practice.webhooks.list(ctx.principal, { isActive: ctx.query().is_active })).map(
            subscriptionView,
          ),
        });
      },
    }),
    route({
      method: "GET",
      path: `${BASE}/subscriptions/:id`,
      ids: { id: SUBSCRIPTION_ID },
      operationId: "webhookGetSubscription",
      summary: "One subscription; signature_key hidden.",
      access: "read",
      responses: { "200": { description: "The subscription", schema: subscriptionSchema }, "404": errors["404"] },
      async handle(ctx) {
        return jsonResponse(200, subscriptionView(await practice.webhooks.get(ctx.principal, ctx.ids.id)));
      },
    }),
    route({
      method: "PATCH",
      path: `${BASE}/subscriptions/:id`,
      ids: { id: SUBSCRIPTION_ID },
      operationId: "webhookUpdateSubscription",
      summary:
        "Update name, event_types (replaces the array), notification_url, api_version or is_active. The duplicate rule runs when the URL or events change or on reactivation.",
      access: "write",
      requestBody: subscriptionUpdateSchema,
      responses: { "200": { description: "The subscription", schema: subscriptionSchema }, ...errors },
      async handle(ctx) {
        const b = await ctx.body();
        const id = ctx.ids.id;
        const updated = await practice.webhooks.update(ctx.principal, id, {
          name: b.name,
          eventTypes: b.event_types,
          notificationUrl: b.notification_url,
          apiVersion: b.api_version,
          signatureFormat: b.signature_format,
          isActive: b.is_active,
        });
        return jsonResponse(200, subscriptionView(updated));
      },
    }),
    route({
      method: "POST",
      path: `${BASE}/subscriptions/:id/subscribe`,
      ids: { id: SUBSCRIPTION_ID },
      operationId: "webhookSubscribe",
      summary: "Add event types, keeping the existing ones (already present: no change).",
      access: "write",
      requestBody: eventListSchema,
      responses: { "200": { description: "The subscription", schema: subscriptionSchema }, ...errors },
      async handle(ctx) {
        const id = ctx.ids.id;
        return jsonResponse(
          200,
          subscriptionView(await practice.webhooks.subscribe(ctx.principal, id, (await ctx.body()).event_types)),
        );
      },
    }),
    route({
      method: "POST",
      path: `${BASE}/subscriptions/:id/unsubscribe`,
      ids: { id: SUBSCRIPTION_ID },
      operationId: "webhookUnsubscribe",
      summary: "Remove event types (unknown ones ignored); removing every event is 400 CANNOT_REMOVE_ALL_EVENTS.",
      access: "write",
      requestBody: eventListSchema,
      responses: { "200": { description: "The subscription", schema: subscriptionSchema }, ...errors },
      async handle(ctx) {
        const id = ctx.ids.id;
        return jsonResponse(
          200,
          subscriptionView(await practice.webhooks.unsubscribe(ctx.principal, id, (await ctx.body()).event_types)),
        );
      },
    }),
    route({
      method: "DELETE",
      path: `${BASE}/subscriptions/:id`,
      ids: { id: SUBSCRIPTION_ID },
      operationId: "webhookDeleteSubscription",
      summary: "Delete a subscription; its pending deliveries are not sent.",
      access: "write",
      responses: { "204": { description: "Deleted" }, "404": errors["404"] },
      async handle(ctx) {
        await practice.webhooks.delete(ctx.principal, ctx.ids.id);
        return new Response(null, { status: 204 });
      },
    }),
    route({
      method: "POST",
      path: `${BASE}/subscriptions/:id/rotate-secret`,
      ids: { id: SUBSCRIPTION_ID },
      operationId: "webhookRotateSecret",
      summary:
        "A new signature_key, returned once; pending retries are signed with it. The old key stops at once unless grace_period_seconds keeps it signing beside the new one.",
      access: "write",
      requestBody: rotateSecretSchema,
      responses: {
        "200": { description: "The subscription and its new signature_key", schema: issuedKeySchema },
        "404": errors["404"],
      },
      async handle(ctx) {
        // The body is optional (the spec's rotate takes none).
        const b = await optionalBody(ctx);
        const rotated = await practice.webhooks.rotateSecret(ctx.principal, ctx.ids.id, {
          gracePeriodSeconds: b.grace_period_seconds,
        });
        return jsonResponse(200, issuedKeyView(rotated));
      },
    }),
    route({
      method: "POST",
      path: `${BASE}/subscriptions/:id/test`,
      ids: { id: SUBSCRIPTION_ID },
      operationId: "webhookTest",
      summary:
        "Send a synthetic delivery (test: true) signed with the current key; the reply holds the payload and the HTTP result.",
      access: "write",
      responses: {
        "200": { description: "The payload sent and the receiver's answer", schema: testDeliverySchema },
        "404": errors["404"],
      },
      async handle(ctx) {
        const sent = await practice.webhookDeliveries.test(ctx.principal, ctx.ids.id);
        return jsonResponse(200, {
          payload: sent.payload,
          delivery_id: sent.deliveryId,
          result: resultView(sent.result),
        });
      },
    }),
    route({
      method: "GET",
      path: `${BASE}/subscriptions/:id/deliveries`,
      ids: { id: SUBSCRIPTION_ID },
      operationId: "webhookListDeliveries",
      summary:
        "The subscription's deliveries, newest first, each with its attempts; `status` = pending, delivered or failed.",
      access: "read",
      query: {
        type: "object",
        additionalProperties: false,
        properties: {
          status: { type: "string", enum: ["pending", "delivered", "failed"] },
          page: { type: "integer", minimum: 1, default: 1 },
          size: { type: "integer", minimum: 1, maximum: 100, default: 20 },
        },
      },
      responses: { "200": { description: "A page of deliveries", schema: deliveriesPageSchema }, "404": errors["404"] },
      async handle(ctx) {
        const q = ctx.query();
        const found = await practice.webhookDeliveries.list(ctx.principal, ctx.ids.id, {
          status: q.status,
          page: q.page,
          size: q.size,
        });
        return jsonResponse(200, {
          deliveries: found.deliveries.map((d) => deliveryView(d.delivery, d.attempts)),
          pagination: v1CurrentPagePagination(found),
        });
      },
    }),
    route({
      method: "POST",
      path: `${BASE}/subscriptions/:id/deliveries/:delivery_id/retry`,
      ids: { id: SUBSCRIPTION_ID, delivery_id: DELIVERY_ID },
      operationId: "webhookRetryDelivery",
      summary: "Re-send a failed delivery with its original event_id, on a fresh retry schedule.",
      access: "write",
      responses: {
        "200": { description: "The delivery", schema: deliverySchema },
        "404": { description: "SUBSCRIPTION_NOT_FOUND or DELIVERY_NOT_FOUND", schema: errorBody },
        "409": { description: "INVALID_TRANSITION: not failed", schema: errorBody },
      },
      async handle(ctx) {
        const retried = await practice.webhookDeliveries.retry(ctx.principal, ctx.ids.id, ctx.ids.delivery_id);
        return jsonResponse(200, deliveryView(retried.delivery, retried.attempts));
      },
    }),
    route({
      method: "GET",
      path: `${BASE}/organisations`,
      operationId: "webhookGetOrganisation",
      summary: "The organisation profile (name, is_active).",
      access: "read",
      responses: { "200": { description: "The organisation", schema: webhookOrganisationSchema } },
      async handle(ctx) {
        return jsonResponse(200, organisationView(await practice.webhooks.organisation(ctx.principal)));
      },
    }),
    route({
      method: "PATCH",
      path: `${BASE}/organisations`,
      operationId: "webhookUpdateOrganisation",
      summary: "Update the organisation's name or is_active; an inactive organisation gets no deliveries.",
      access: "write",
      requestBody: organisationUpdateSchema,
      responses: {
        "200": { description: "The organisation", schema: webhookOrganisationSchema },
        "400": errors["400"],
      },
      async handle(ctx) {
        const b = await ctx.body();
        return jsonResponse(
          200,
          organisationView(
            await practice.webhooks.updateOrganisation(ctx.principal, { name: b.name, isActive: b.is_active }),
          ),
        );
      },
    }),
  ];
}
