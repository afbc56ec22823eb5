import {
  APPOINTMENT_LIMITS,
  type AppointmentCategory,
  CATALOG_LIMITS,
  type CancellationReason,
} from "@openpractice/core";
import type { FieldNames } from "../contracts/field-names.js";
import { pathIdKind } from "../contracts/path-id.js";
import { v2PageParameters } from "../contracts/v2-contract.js";
import { routeGroup, scopePair } from "../define-route.js";
import { resourceRoutes } from "../resource-routes.js";
import type { RouteDefinition, RouteDependencies } from "../route.js";
import {
  boolean,
  described,
  idText,
  integer,
  number,
  oneOfStrings,
  replyObject,
  plainText,
  textOrNull,
} from "../openapi/reply-schemas.js";
import { nullable } from "../validation/json-schema.js";

const TYPE_ID = pathIdKind("APPOINTMENT_TYPE_NOT_FOUND", "appointment_type_id");
const REASON_ID = pathIdKind("CANCELLATION_REASON_NOT_FOUND", "cancellation_reason_id");
/** Changing the reference data booking uses is an administrator's: `admin`, or `catalog:write` (as the billing catalog). */
const ADMIN_SCOPES = Object.freeze(["catalog:write", "admin"]);

const typeProperties = {
  name: { type: "string", minLength: 1, maxLength: CATALOG_LIMITS.nameMax },
  type: { type: "string", pattern: "^[A-Z][A-Z_]{0,29}$", description: "e.g. IN_PERSON or TELEHEALTH" },
  duration_minutes: { type: "integer", minimum: CATALOG_LIMITS.minMinutes, maximum: CATALOG_LIMITS.maxMinutes },
  colour: nullable({ type: "string", pattern: "^#[0-9A-Fa-f]{6}$", description: "#RRGGBB" }),
} as const;
const typeCreateSchema = {
  $id: "V2AppointmentTypeCreate",
  type: "object",
  additionalProperties: false,
  required: ["name", "type", "duration_minutes"],
  properties: typeProperties,
} as const;
const typeUpdateSchema = {
  $id: "V2AppointmentTypeUpdate",
  type: "object",
  additionalProperties: false,
  minProperties: 1,
  properties: { ...typeProperties, active: { type: "boolean", description: "false: it can no longer be booked" } },
} as const;

const reasonLabel = { type: "string", minLength: 1, maxLength: CATALOG_LIMITS.labelMax } as const;
const fee = { type: "number", minimum: 0, maximum: APPOINTMENT_LIMITS.maxCancellationFee } as const;
const reasonCreateSchema = {
  $id: "V2CancellationReasonCreate",
  type: "object",
  additionalProperties: false,
  required: ["reason_key", "reason_label"],
  properties: {
    reason_key: {
      type: "string",
      pattern: "^[A-Za-z0-9_.-]{1,64}$",
      description: "What cancellations name (v1 cancellation_reason_key)",
    },
    reason_label: reasonLabel,
    cancellation_fee: { ...fee, description: "The default fee of a cancellation with this reason (0 when omitted)" },
  },
} as const;
const reasonUpdateSchema = {
  $id: "V2CancellationReasonUpdate",
  type: "object",
  additionalProperties: false,
  minProperties: 1,
  properties: {
    reason_label: reasonLabel,
    cancellation_fee: fee,
    status: {
      type: "string",
      enum: ["ACTIVE", "INACTIVE"],
      description: "INACTIVE: cancellations can no longer name it",
    },
  },
} as const;

const listQuery = {
  type: "object",
  additionalProperties: false,
  properties: {
    ...v2PageParameters(50, 100),
    status: { type: "string", enum: ["active", "inactive", "all"], default: "active" },
  },
} as const;

const FIELDS: FieldNames = Object.freeze({
  durationMinutes: "duration_minutes",
  reasonKey: "reason_key",
  reasonLabel: "reason_label",
  cancellationFee: "cancellation_fee",
});

const typeView = (c: AppointmentCategory) => ({
  id: String(c.id),
  name: c.name,
  type: c.type,
  duration_minutes: c.durationMinutes,
  colour: c.colour,
  active: c.active,
});
const reasonView = (r: CancellationReason) => ({
  id: String(r.id),
  reason_key: r.reasonKey,
  reason_label: r.reasonLabel,
  cancellation_fee: r.cancellationFee,
  status: r.status,
});
/** An appointment type (typeView): v1's appointment category. */
const typeSchema = replyObject(
  {
    id: idText,
    name: plainText,
    type: described(plainText, "e.g. IN_PERSON or TELEHEALTH"),
    duration_minutes: integer,
    colour: described(textOrNull, "#RRGGBB, or null for the calendar's own"),
    active: boolean,
  },
  { title: "AppointmentType" },
);
/** A cancellation reason (reasonView). */
const reasonSchema = replyObject(
  {
    id: idText,
    reason_key: described(plainText, "What cancellations name (v1 cancellation_reason_key)"),
    reason_label: plainText,
    cancellation_fee: described(number, "The default fee of a cancellation with this reason"),
    status: oneOfStrings(["ACTIVE", "INACTIVE"]),
  },
  { title: "CancellationReason" },
);

/**
 * Spec 4.7 `GET /v2/appointment-types` (the organisation's appointment categories, read-only in the spec) and,
 * beyond it, an administrator's create and change of those types and of the cancellation reasons v1 and v2 use.
 */
export function v2CatalogRoutes({ practice }: RouteDependencies): RouteDefinition[] {
  const route = routeGroup({
    contract: "v2",
    tags: ["Appointment types and cancellation reasons (v2 beta)"],
    auth: true,
    scopes: scopePair("appointments"),
    rateLimitBucket: "v2",
    fieldNames: FIELDS,
  });
  const types = resourceRoutes(route, {
    path: "/v2/appointment-types",
    item: "/v2/appointment-types/:appointment_type_id",
    ids: { appointment_type_id: TYPE_ID },
    view: typeView,
    reply: typeSchema,
    conflict: "DUPLICATE_APPOINTMENT_TYPE",
  });
  const reasons = resourceRoutes(route, {
    path: "/v2/cancellation-reasons",
    item: "/v2/cancellation-reasons/:cancellation_reason_id",
    ids: { cancellation_reason_id: REASON_ID },
    view: reasonView,
    reply: reasonSchema,
  });
  return [
    types.list({
      operationId: "v2ListAppointmentTypes",
      summary:
        "The organisation's appointment types (v1 appointment categories) with duration and colour; active ones unless status says otherwise.",
      description: "A page of appointment types",
      query: listQuery,
      async handle(ctx) {
        const q = ctx.query();
        return practice.catalog.appointmentTypePage(ctx.principal, {
          page: q.page,
          perPage: q.per_page,
          status: q.status,
        });
      },
    }),
    types.create({
      operationId: "v2CreateAppointmentType",
      summary: "Admin: add an appointment type (active). The name is unique in the organisation.",
      description: "The new type",
      scopes: ADMIN_SCOPES,
      requestBody: typeCreateSchema,
      async handle(ctx) {
        const b = await ctx.body();
        return practice.catalogAdmin.createAppointmentType(ctx.principal, {
          name: b.name,
          type: b.type,
          durationMinutes: b.duration_minutes,
          colour: b.colour,
        });
      },
    }),
    types.get({
      operationId: "v2GetAppointmentType",
      summary: "Read an appointment type, active or not.",
      description: "The type",
      handle: (ctx) => practice.catalogAdmin.appointmentType(ctx.principal, ctx.ids.appointment_type_id),
    }),
    types.update({
      operationId: "v2UpdateAppointmentType",
      summary:
        "Admin: change an appointment type; active false stops new bookings with it (existing appointments keep it).",
      description: "The type after the change",
      scopes: ADMIN_SCOPES,
      requestBody: typeUpdateSchema,
      async handle(ctx) {
        const b = await ctx.body();
        return practice.catalogAdmin.updateAppointmentType(ctx.principal, ctx.ids.appointment_type_id, {
          name: b.name,
          type: b.type,
          durationMinutes: b.duration_minutes,
          colour: b.colour,
          active: b.active,
        });
      },
    }),
    reasons.list({
      operationId: "v2ListCancellationReasons",
      summary:
        "The organisation's cancellation reasons with their default fees; active ones unless status says otherwise.",
      description: "A page of reasons",
      query: listQuery,
      async handle(ctx) {
        const q = ctx.query();
        return practice.catalog.cancellationReasonPage(ctx.principal, {
          page: q.page,
          perPage: q.per_page,
          status: q.status,
        });
      },
    }),
    reasons.create({
      operationId: "v2CreateCancellationReason",
      summary: "Admin: add a cancellation reason (active). The key is unique in the organisation and never changes.",
      description: "The new reason",
      scopes: ADMIN_SCOPES,
      requestBody: reasonCreateSchema,
      responses: {
        "409": { description: "DUPLICATE_CANCELLATION_REASON", schema: { $ref: "#/components/schemas/V2Error" } },
      },
      async handle(ctx) {
        const b = await ctx.body();
        return practice.catalogAdmin.createCancellationReason(ctx.principal, {
          reasonKey: b.reason_key,
          reasonLabel: b.reason_label,
          cancellationFee: b.cancellation_fee,
        });
      },
    }),
    reasons.update({
      operationId: "v2UpdateCancellationReason",
      summary:
        "Admin: change a reason's label, default fee or status; INACTIVE reasons can no longer be named by a cancellation.",
      description: "The reason after the change",
      scopes: ADMIN_SCOPES,
      requestBody: reasonUpdateSchema,
      async handle(ctx) {
        const b = await ctx.body();
        return practice.catalogAdmin.updateCancellationReason(ctx.principal, ctx.ids.cancellation_reason_id, {
          reasonLabel: b.reason_label,
          cancellationFee: b.cancellation_fee,
          status: b.status,
        });
      },
    }),
  ];
}
