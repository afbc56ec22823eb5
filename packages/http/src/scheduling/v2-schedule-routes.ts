import { type ProviderSchedule, SCHEDULE_LIMITS, WEEKDAYS } from "@openpractice/core";
import type { FieldNames } from "../contracts/field-names.js";
import { jsonResponse } from "../contracts/json-response.js";
import { pathIdKind } from "../contracts/path-id.js";
import { V2_ID_INPUT, v2ListBody, v2ListSchema, v2PageParameters } from "../contracts/v2-contract.js";
import { routeGroup, scopePair } from "../define-route.js";
import {
  arrayOf,
  date,
  dateOrNull,
  dateTime,
  described,
  idText,
  idTextOrNull,
  oneOfStrings,
  plainText,
  replyObject,
  textOrNull,
} from "../openapi/reply-schemas.js";
import type { RouteDefinition, RouteDependencies } from "../route.js";
import { nullable } from "../validation/json-schema.js";

const PROVIDER_ID = pathIdKind("PROVIDER_NOT_FOUND", "provider_id");
const SCHEDULE_ID = pathIdKind("SCHEDULE_NOT_FOUND", "schedule_id");
const idRef = V2_ID_INPUT;
const wallClock = {
  type: "string",
  pattern: "^([01][0-9]|2[0-3]):[0-5][0-9]$",
  description: "HH:MM, 24-hour",
} as const;
const calendarDate = { type: "string", format: "date" } as const;

const v2ScheduleCreateSchema = {
  $id: "V2ScheduleCreate",
  type: "object",
  additionalProperties: false,
  required: ["clinic_id", "start_time", "end_time", "effective_from"],
  properties: {
    clinic_id: { ...idRef, description: "A clinic the provider works at; its time zone reads the times" },
    weekdays: {
      type: "array",
      minItems: 1,
      maxItems: 7,
      uniqueItems: true,
      items: { type: "string", enum: [...WEEKDAYS] },
      description: "The days of a weekly shift (MO…SU); leave out with rrule",
    },
    start_time: { ...wallClock, description: "Local start, HH:MM" },
    end_time: { ...wallClock, description: "Local end the same day, after start_time" },
    effective_from: { ...calendarDate, description: "First day (inclusive)" },
    effective_until: nullable({ ...calendarDate, description: "Last day (inclusive); none: until replaced" }),
    rrule: nullable({
      type: "string",
      minLength: 1,
      maxLength: SCHEDULE_LIMITS.maxRruleLength,
      description:
        "An RFC 5545 RRULE for other patterns, e.g. FREQ=WEEKLY;INTERVAL=2;BYDAY=MO (every other Monday); bounded by UNTIL, COUNT or effective_until",
    }),
    replaces_schedule_id: nullable({
      ...idRef,
      description: "The schedule this version replaces: it ends the day before effective_from",
    }),
  },
} as const;

const v2ScheduleListQuerySchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    ...v2PageParameters(SCHEDULE_LIMITS.defaultPerPage, SCHEDULE_LIMITS.maxPerPage),
    clinic_id: { type: "integer", minimum: 1, description: "Shifts at this clinic" },
    status: {
      type: "string",
      enum: ["current", "all"],
      default: "current",
      description: "current: not ended before today; all: ended and replaced versions too",
    },
  },
} as const;

const v2ScheduleSchema = replyObject(
  {
    id: idText,
    provider_id: idText,
    clinic_id: idText,
    weekdays: arrayOf(oneOfStrings(WEEKDAYS), "The days of a weekly shift; empty with an rrule"),
    start_time: described(plainText, "HH:MM in the clinic's time zone"),
    end_time: described(plainText, "HH:MM in the clinic's time zone"),
    effective_from: date,
    effective_until: described(dateOrNull, "Last day; null until replaced or ended"),
    rrule: textOrNull,
    replaces_schedule_id: idTextOrNull,
    replaced_by_schedule_id: idTextOrNull,
    created_at: dateTime,
    updated_at: dateTime,
  },
  {
    title: "ProviderSchedule",
    examples: [
      {
        id: "12",
        provider_id: "7",
        clinic_id: "3",
        weekdays: ["MO", "WE", "FR"],
        start_time: "09:00",
        end_time: "17:00",
        effective_from: "2026-01-05",
        effective_until: null,
        rrule: null,
        replaces_schedule_id: null,
        replaced_by_schedule_id: null,
        created_at: "2026-01-02T15:00:00.000Z",
        updated_at: "2026-01-02T15:00:00.000Z",
      },
    ],
  },
);

const V2_SCHEDULE_FIELDS: FieldNames = Object.freeze({
  clinicId: "clinic_id",
  startTime: "start_time",
  endTime: "end_time",
  effectiveFrom: "effective_from",
  effectiveUntil: "effective_until",
  replacesId: "replaces_schedule_id",
  timeZone: "time_zone",
});

export const v2ScheduleView = (s: ProviderSchedule) => ({
  id: String(s.id),
  provider_id: String(s.providerId),
  clinic_id: String(s.clinicId),
  weekdays: s.weekdays,
  start_time: s.startTime,
  end_time: s.endTime,
  effective_from: s.effectiveFrom,
  effective_until: s.effectiveUntil,
  rrule: s.rrule,
  replaces_schedule_id: s.replacesId === null ? null : String(s.replacesId),
  replaced_by_schedule_id: s.replacedById === null ? null : String(s.replacedById),
  created_at: s.createdAt.toISOString(),
  updated_at: s.updatedAt.toISOString(),
});

/** Working hours (spec 4.7): GET, POST /v2/providers/{provider_id}/schedules; GET /v2/schedules/{schedule_id}. */
export function v2ScheduleRoutes({ practice }: RouteDependencies): RouteDefinition[] {
  const route = routeGroup({
    contract: "v2",
    tags: ["Scheduling (v2 beta)"],
    auth: true,
    scopes: scopePair("schedules"),
    rateLimitBucket: "v2",
    fieldNames: V2_SCHEDULE_FIELDS,
  });
  const error = (description: string) => ({ description, schema: { $ref: "#/components/schemas/V2Error" } });
  return [
    route({
      method: "POST",
      path: "/v2/providers/:provider_id/schedules",
      ids: { provider_id: PROVIDER_ID },
      auditResource: "schedule",
      operationId: "v2CreateSchedule",
      summary:
        "Add a recurring shift (or a new version of one: replaces_schedule_id). Refused when it overlaps another shift of the provider at any clinic.",
      access: "write",
      requestBody: v2ScheduleCreateSchema,
      responses: {
        "201": { description: "The new schedule", schema: v2ScheduleSchema },
        "404": error("PROVIDER_NOT_FOUND, CLINIC_NOT_FOUND, or SCHEDULE_NOT_FOUND for replaces_schedule_id"),
        "409": error(
          "SCHEDULE_OVERLAP (details.conflicting_schedule_id, clinic_id, overlap_start, overlap_end) or SCHEDULE_ALREADY_REPLACED",
        ),
      },
      async handle(ctx) {
        const b = await ctx.body();
        const created = await practice.schedules.create(ctx.principal, ctx.ids.provider_id, {
          clinicId: Number(b.clinic_id),
          weekdays: b.weekdays,
          startTime: b.start_time,
          endTime: b.end_time,
          effectiveFrom: b.effective_from,
          effectiveUntil: b.effective_until,
          rrule: b.rrule,
          replacesId:
            b.replaces_schedule_id === undefined || b.replaces_schedule_id === null
              ? null
              : Number(b.replaces_schedule_id),
        });
        return jsonResponse(201, v2ScheduleView(created), { location: `${ctx.basePath}/v2/schedules/${created.id}` });
      },
    }),
    route({
      method: "GET",
      path: "/v2/providers/:provider_id/schedules",
      ids: { provider_id: PROVIDER_ID },
      readsOnly: true,
      operationId: "v2ListSchedules",
      summary: "The provider's shifts, newest first: those in force from today on, or all versions with status=all.",
      access: "read",
      query: v2ScheduleListQuerySchema,
      responses: { "200": { description: "A page of schedules", schema: v2ListSchema(v2ScheduleSchema) } },
      async handle(ctx) {
        const q = ctx.query();
        const page = await practice.schedules.list(ctx.principal, ctx.ids.provider_id, {
          clinicId: q.clinic_id,
          status: q.status,
          page: q.page,
          perPage: q.per_page,
        });
        return jsonResponse(200, v2ListBody(ctx, page, page.schedules.map(v2ScheduleView), undefined));
      },
    }),
    route({
      method: "GET",
      path: "/v2/schedules/:schedule_id",
      ids: { schedule_id: SCHEDULE_ID },
      readsOnly: true,
      operationId: "v2GetSchedule",
      summary: "Read one schedule version, in force or not.",
      access: "read",
      responses: { "200": { description: "The schedule", schema: v2ScheduleSchema } },
      async handle(ctx) {
        return jsonResponse(200, v2ScheduleView(await practice.schedules.get(ctx.principal, ctx.ids.schedule_id)));
      },
    }),
  ];
}
