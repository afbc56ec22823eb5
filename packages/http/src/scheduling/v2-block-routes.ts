import { type Appointment, BLOCK_LIMITS, type ProviderBlock } from "@openpractice/core";
import type { FieldNames } from "../contracts/field-names.js";
import { jsonResponse } from "../contracts/json-response.js";
import { pathIdKind } from "../contracts/path-id.js";
import { V2_META_SCHEMA, v2Meta } from "../contracts/v2-contract.js";
import { routeGroup, scopePair } from "../define-route.js";
import {
  arrayOf,
  dateTime,
  dateTimeOrNull,
  described,
  idText,
  integer,
  plainText,
  replyObject,
  textOrNull,
} from "../openapi/reply-schemas.js";
import type { RouteDefinition, RouteDependencies } from "../route.js";
import { nullable } from "../validation/json-schema.js";

const PROVIDER_ID = pathIdKind("PROVIDER_NOT_FOUND", "provider_id");
const BLOCK_ID = pathIdKind("BLOCK_NOT_FOUND", "block_id");
const instant = { type: "string", format: "date-time", description: "ISO 8601 with an offset or Z" } as const;

const v2BlockCreateSchema = {
  $id: "V2BlockCreate",
  type: "object",
  additionalProperties: false,
  required: ["start", "end", "reason"],
  properties: {
    start: instant,
    end: { ...instant, description: "After start; at most 24 hours later when the block recurs" },
    reason: {
      type: "string",
      minLength: 1,
      maxLength: BLOCK_LIMITS.reasonMax,
      description: "Meeting, vacation, lunch…",
    },
    time_zone: nullable({
      type: "string",
      minLength: 1,
      maxLength: 64,
      description: "With rrule: the IANA zone whose wall-clock times each occurrence keeps",
    }),
    rrule: nullable({
      type: "string",
      minLength: 1,
      maxLength: BLOCK_LIMITS.maxRruleLength,
      description: "An RFC 5545 RRULE, bounded by UNTIL or COUNT (at most 1,000 occurrences), e.g. FREQ=DAILY;COUNT=20",
    }),
  },
} as const;

const v2BlockListQuerySchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    from: { type: "string", format: "date-time", description: "Default: now" },
    to: { type: "string", format: "date-time", description: "Default and most: 366 days after from" },
  },
} as const;

const blockProperties = {
  id: idText,
  provider_id: idText,
  start: dateTime,
  end: dateTime,
  reason: plainText,
  time_zone: textOrNull,
  rrule: textOrNull,
  last_end: described(dateTime, "The end of the last occurrence (end, for a one-off block)"),
  series_id: described(idText, "The series it belongs to: its own id, or the block a v1 series edit split it from"),
  exceptions: arrayOf(
    replyObject({
      occurrence_date: plainText,
      kind: plainText,
      start: dateTimeOrNull,
      end: dateTimeOrNull,
      reason: textOrNull,
    }),
    "Occurrences changed or cancelled on v1 (RECURRENCE-ID by local date); slots apply them",
  ),
  created_at: dateTime,
  removed_at: dateTimeOrNull,
};
const blockExample = {
  id: "31",
  provider_id: "7",
  start: "2027-01-04T18:00:00.000Z",
  end: "2027-01-04T19:00:00.000Z",
  reason: "Lunch",
  time_zone: "America/Chicago",
  rrule: "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;COUNT=60",
  last_end: "2027-03-26T18:00:00.000Z",
  series_id: "31",
  exceptions: [],
  created_at: "2026-12-20T15:00:00.000Z",
  removed_at: null,
};
const v2BlockSchema = replyObject(blockProperties, { title: "ProviderBlock", examples: [blockExample] });
const overlappedSchema = replyObject(
  { id: idText, start: dateTime, end: dateTime, status: plainText, patient_id: idText, clinic_id: idText },
  { title: "OverlappedAppointment" },
);
const v2BlockCreatedSchema = replyObject(
  {
    ...blockProperties,
    overlapping_appointments: arrayOf(
      overlappedSchema,
      "Appointments that hold time inside the block (the first 100): they are not cancelled",
    ),
    overlapping_appointment_count: described(integer, "How many there are in all"),
  },
  {
    title: "ProviderBlockCreated",
    examples: [{ ...blockExample, overlapping_appointments: [], overlapping_appointment_count: 0 }],
  },
);

const V2_BLOCK_FIELDS: FieldNames = Object.freeze({
  startsAt: "start",
  endsAt: "end",
  timeZone: "time_zone",
});

const v2BlockView = (b: ProviderBlock) => ({
  id: String(b.id),
  provider_id: String(b.providerId),
  start: b.startsAt.toISOString(),
  end: b.endsAt.toISOString(),
  reason: b.reason,
  time_zone: b.timeZone,
  rrule: b.rrule,
  last_end: b.lastEndsAt.toISOString(),
  series_id: String(b.seriesId ?? b.id),
  exceptions: b.exceptions.map((e) => ({
    occurrence_date: e.occurrenceDate,
    kind: e.kind,
    start: e.startsAt?.toISOString() ?? null,
    end: e.endsAt?.toISOString() ?? null,
    reason: e.reason,
  })),
  created_at: b.createdAt.toISOString(),
  removed_at: b.removedAt ? b.removedAt.toISOString() : null,
});
const overlappedView = (a: Appointment) => ({
  id: String(a.id),
  start: a.startsAt.toISOString(),
  end: a.endsAt.toISOString(),
  status: a.status,
  patient_id: String(a.patientId),
  clinic_id: String(a.clinicId),
});

/** Blocks (spec 4.7): POST, GET /v2/providers/{provider_id}/blocks; DELETE /v2/blocks/{block_id}. */
export function v2BlockRoutes({ practice }: RouteDependencies): RouteDefinition[] {
  const route = routeGroup({
    contract: "v2",
    tags: ["Scheduling (v2 beta)"],
    auth: true,
    scopes: scopePair("schedules"),
    rateLimitBucket: "v2",
    fieldNames: V2_BLOCK_FIELDS,
  });
  return [
    route({
      method: "POST",
      path: "/v2/providers/:provider_id/blocks",
      ids: { provider_id: PROVIDER_ID },
      auditResource: "block",
      operationId: "v2CreateBlock",
      summary:
        "Block time a provider is not bookable, once or recurring. A block over booked appointments is stored and lists them; none is cancelled.",
      access: "write",
      requestBody: v2BlockCreateSchema,
      responses: { "201": { description: "The block and the appointments it overlaps", schema: v2BlockCreatedSchema } },
      async handle(ctx) {
        const b = await ctx.body();
        const created = await practice.blocks.create(ctx.principal, ctx.ids.provider_id, {
          startsAt: new Date(b.start),
          endsAt: new Date(b.end),
          reason: b.reason,
          timeZone: b.time_zone,
          rrule: b.rrule,
        });
        return jsonResponse(
          201,
          {
            ...v2BlockView(created.block),
            overlapping_appointments: created.overlapping.map(overlappedView),
            overlapping_appointment_count: created.overlappingCount,
          },
          { location: `${ctx.basePath}/v2/blocks/${created.block.id}` },
        );
      },
    }),
    route({
      method: "GET",
      path: "/v2/providers/:provider_id/blocks",
      ids: { provider_id: PROVIDER_ID },
      readsOnly: true,
      operationId: "v2ListBlocks",
      summary: "The provider's blocks (not removed) that meet [from, to), by start.",
      access: "read",
      query: v2BlockListQuerySchema,
      responses: {
        "200": {
          description: "The blocks",
          schema: replyObject({ data: arrayOf(v2BlockSchema), meta: V2_META_SCHEMA }),
        },
      },
      async handle(ctx) {
        const q = ctx.query();
        const blocks = await practice.blocks.list(ctx.principal, ctx.ids.provider_id, {
          ...(q.from ? { from: new Date(q.from) } : {}),
          ...(q.to ? { to: new Date(q.to) } : {}),
        });
        return jsonResponse(200, { data: blocks.map(v2BlockView), meta: v2Meta(ctx) });
      },
    }),
    route({
      method: "DELETE",
      path: "/v2/blocks/:block_id",
      ids: { block_id: BLOCK_ID },
      operationId: "v2DeleteBlock",
      summary: "Remove a block: its time is bookable again. The record stays (removed_at); removing it again is 404.",
      access: "write",
      responses: { "200": { description: "The removed block", schema: v2BlockSchema } },
      async handle(ctx) {
        return jsonResponse(200, v2BlockView(await practice.blocks.remove(ctx.principal, ctx.ids.block_id)));
      },
    }),
  ];
}
