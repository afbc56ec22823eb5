import { assertRecipientQuery } from "@openpractice/core";
import { jsonResponse } from "../contracts/json-response.js";
import { V1_CURRENT_PAGE_PAGINATION_SCHEMA, v1CurrentPagePagination } from "../contracts/v1-contract.js";
import { arrayOf, described, integer, replyObject, plainText } from "../openapi/reply-schemas.js";
import type { RouteDefinition, RouteDependencies } from "../route.js";
import {
  deliverSchema,
  inboxEntryView,
  inboxQuery,
  ERROR_BODY,
  NOTIFICATIONS_PATH,
  notificationRoute,
  ACCEPTED_SCHEMA,
  INBOX_ENTRY_SCHEMA,
  NOTIFICATION_SCHEMA,
  notificationView,
  recipientSchema,
} from "./notification-contract.js";

const BASE = NOTIFICATIONS_PATH;

/**
 * Spec 4.5 and our additions: deliver (202, asynchronous), a notification
 * with its per-device attempts, the recipient's inbox, read marks, and the
 * VAPID key browsers subscribe with. Like the webhook API these answer with
 * the resource itself and v2-shaped errors.
 */
export function notificationRoutes({ practice }: RouteDependencies): RouteDefinition[] {
  const notFound = {
    "404": { description: "NOTIFICATION_NOT_FOUND (also for other organisations' notifications)", schema: ERROR_BODY },
  };
  return [
    notificationRoute({
      method: "POST",
      path: `${BASE}/deliver`,
      operationId: "deliverNotification",
      summary:
        "Send a push notification to every device of one patient or provider, and put it in their inbox. Validated at once (400 naming the field), delivered in the background: 202 {notification_id, status: accepted}. Titles and bodies show on lock screens: no health information.",
      access: "write",
      requestBody: deliverSchema,
      responses: {
        "202": {
          description:
            "{notification_id, status: accepted}; a repeat of an idempotency_key answers the first notification's id with Idempotent-Replayed: true",
          schema: ACCEPTED_SCHEMA,
        },
        "400": {
          description:
            "MALFORMED_JSON, or VALIDATION_FAILED naming recipient.user_id, recipient.user_type, notification.title ...",
          schema: ERROR_BODY,
        },
        "422": {
          description: "IDEMPOTENCY_KEY_REUSED: the key was used for a different notification; details name it",
          schema: ERROR_BODY,
        },
      },
      async handle(ctx) {
        const b = await ctx.body();
        const accepted = await practice.notifications.deliver(ctx.principal, {
          recipient: { userId: b.recipient?.user_id, userType: b.recipient?.user_type },
          title: b.notification?.title,
          body: b.notification?.body,
          link: b.notification?.link,
          idempotencyKey: b.idempotency_key,
        });
        const headers: Record<string, string> = { location: `${ctx.basePath}${BASE}/${accepted.notificationId}` };
        if (accepted.replayed) headers["idempotent-replayed"] = "true";
        return jsonResponse(202, { notification_id: accepted.notificationId, status: accepted.status }, headers);
      },
    }),
    notificationRoute({
      auth: false,
      method: "GET",
      path: `${BASE}/vapid-public-key`,
      operationId: "vapidPublicKey",
      summary:
        "The VAPID public key (base64url) browsers pass to PushManager.subscribe as applicationServerKey. No token needed: it is public.",
      responses: {
        "200": {
          description: "The VAPID public key",
          schema: replyObject(
            { public_key: described(plainText, "base64url: PushManager.subscribe's applicationServerKey") },
            { title: "VapidPublicKey" },
          ),
        },
        "503": { description: "PUSH_NOT_CONFIGURED", schema: ERROR_BODY },
      },
      async handle() {
        return jsonResponse(
          200,
          { public_key: practice.notifications.vapidPublicKey() },
          { "cache-control": "public, max-age=300" },
        );
      },
    }),
    notificationRoute({
      method: "GET",
      path: `${BASE}/inbox`,
      operationId: "notificationInbox",
      summary:
        "A user's in-app inbox, newest first, paged; `unread=true` lists unread entries only. unread_count counts all unread entries.",
      access: "read",
      query: inboxQuery,
      responses: {
        "200": {
          description: "A page of the inbox and the count of all unread entries",
          schema: replyObject({
            entries: arrayOf(INBOX_ENTRY_SCHEMA),
            unread_count: integer,
            pagination: V1_CURRENT_PAGE_PAGINATION_SCHEMA,
          }),
        },
        "400": { description: "INVALID_PARAMETER", schema: ERROR_BODY },
      },
      async handle(ctx) {
        const q = ctx.query();
        const found = await practice.notifications.inbox(
          ctx.principal,
          assertRecipientQuery({ userType: q.user_type, userId: q.user_id }),
          { unreadOnly: q.unread, page: q.page, size: q.size },
        );
        return jsonResponse(200, {
          entries: found.entries.map(inboxEntryView),
          unread_count: found.unread,
          pagination: v1CurrentPagePagination(found),
        });
      },
    }),
    notificationRoute({
      method: "POST",
      path: `${BASE}/inbox/read-all`,
      operationId: "notificationInboxReadAll",
      summary: "Mark every unread entry of a user's inbox read; answers how many changed.",
      access: "write",
      requestBody: recipientSchema,
      responses: {
        "200": {
          description: "How many entries were marked read",
          schema: replyObject({ marked_read: integer }),
        },
        "400": { description: "VALIDATION_FAILED", schema: ERROR_BODY },
      },
      async handle(ctx) {
        const b = await ctx.body();
        return jsonResponse(200, {
          marked_read: await practice.notifications.markAllRead(ctx.principal, {
            userType: b.user_type,
            userId: b.user_id,
          }),
        });
      },
    }),
    notificationRoute({
      method: "GET",
      path: `${BASE}/:notification_id`,
      operationId: "getNotification",
      summary:
        "One notification: its content, delivery_status (queued, delivered, partially_delivered, failed, no_devices), read state, and each device's delivery with every attempt.",
      access: "read",
      responses: { "200": { description: "The notification", schema: NOTIFICATION_SCHEMA }, ...notFound },
      async handle(ctx) {
        const found = await practice.notifications.get(ctx.principal, ctx.params.notification_id);
        return jsonResponse(200, notificationView(found.notification, found.pushes));
      },
    }),
    notificationRoute({
      method: "POST",
      path: `${BASE}/:notification_id/read`,
      operationId: "markNotificationRead",
      summary: "Mark an inbox entry read (again: no change, the first read time stays).",
      access: "write",
      responses: { "200": { description: "The inbox entry", schema: INBOX_ENTRY_SCHEMA }, ...notFound },
      async handle(ctx) {
        return jsonResponse(
          200,
          inboxEntryView(await practice.notifications.markRead(ctx.principal, ctx.params.notification_id)),
        );
      },
    }),
  ];
}
