import { assertRecipientQuery } from "@openpractice/core";
import { jsonResponse } from "../contracts/json-response.js";
import { arrayOf, replyObject } from "../openapi/reply-schemas.js";
import type { RouteDefinition, RouteDependencies } from "../route.js";
import {
  deviceRegisterSchema,
  devicesQuery,
  deviceView,
  ERROR_BODY,
  NOTIFICATIONS_PATH,
  notificationRoute,
  DEVICE_SCHEMA,
} from "./notification-contract.js";

const BASE = `${NOTIFICATIONS_PATH}/devices`;

/** Push devices of the organisation's users: register (or re-register) a Web Push subscription, list, read, remove. */
export function deviceRoutes({ practice }: RouteDependencies): RouteDefinition[] {
  const notFound = { "404": { description: "DEVICE_NOT_FOUND", schema: ERROR_BODY } };
  return [
    notificationRoute({
      method: "POST",
      path: BASE,
      operationId: "registerPushDevice",
      summary:
        "Register a user's browser for Web Push: 201 with the device, or 200 when the organisation already had this endpoint (it moves to this user and these keys).",
      access: "write",
      requestBody: deviceRegisterSchema,
      responses: {
        "201": { description: "The new device", schema: DEVICE_SCHEMA },
        "200": { description: "The device, re-registered", schema: DEVICE_SCHEMA },
        "400": { description: "VALIDATION_FAILED naming the field", schema: ERROR_BODY },
      },
      async handle(ctx) {
        const b = await ctx.body();
        const { device, created } = await practice.pushDevices.register(ctx.principal, {
          userId: b.user_id,
          userType: b.user_type,
          endpoint: b.endpoint,
          keys: b.keys,
          label: b.label,
        });
        return jsonResponse(
          created ? 201 : 200,
          deviceView(device),
          created ? { location: `${ctx.basePath}${BASE}/${device.id}` } : {},
        );
      },
    }),
    notificationRoute({
      method: "GET",
      path: BASE,
      operationId: "listPushDevices",
      summary: "A user's devices, oldest first.",
      access: "read",
      query: devicesQuery,
      responses: {
        "200": { description: "The user's devices", schema: replyObject({ devices: arrayOf(DEVICE_SCHEMA) }) },
        "400": { description: "INVALID_PARAMETER", schema: ERROR_BODY },
      },
      async handle(ctx) {
        const q = ctx.query();
        const devices = await practice.pushDevices.list(
          ctx.principal,
          assertRecipientQuery({ userType: q.user_type, userId: q.user_id }),
        );
        return jsonResponse(200, { devices: devices.map(deviceView) });
      },
    }),
    notificationRoute({
      method: "GET",
      path: `${BASE}/:device_id`,
      operationId: "getPushDevice",
      summary: "One device.",
      access: "read",
      responses: { "200": { description: "The device", schema: DEVICE_SCHEMA }, ...notFound },
      async handle(ctx) {
        return jsonResponse(200, deviceView(await practice.pushDevices.get(ctx.principal, ctx.params.device_id)));
      },
    }),
    notificationRoute({
      method: "DELETE",
      path: `${BASE}/:device_id`,
      operationId: "removePushDevice",
      summary: "Remove a device (the user signed out, or unsubscribed in the browser); it gets no further pushes.",
      access: "write",
      responses: { "204": { description: "Removed" }, ...notFound },
      async handle(ctx) {
        await practice.pushDevices.remove(ctx.principal, ctx.params.device_id);
        return new Response(null, { status: 204 });
      },
    }),
  ];
}
