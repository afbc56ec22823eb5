import type { Practice, Principal, ProviderBlock } from "@openpractice/core";
import { pathIdKind } from "../contracts/path-id.js";
import { v1EnvelopeSchema, v1Success } from "../contracts/v1-contract.js";
import { routeGroup, scopePair } from "../define-route.js";
import { arrayOf } from "../openapi/reply-schemas.js";
import type { RouteDefinition, RouteDependencies } from "../route.js";
import {
  overlappedView,
  V1_BLOCK_FIELDS,
  v1BlockCreateSchema,
  v1BlockDeleteQuery,
  v1BlockListQuery,
  v1BlockModifySchema,
  v1BlockSchema,
  v1BlockView,
  v1BlockWriteSchema,
  v1OccurrenceSchema,
  v1OccurrenceView,
} from "./v1-block-contract.js";

const DOCTOR_ID = pathIdKind("PROVIDER_NOT_FOUND", "doctor_id");
const BLOCK_ID = pathIdKind("BLOCK_NOT_FOUND", "block_id");
const v1ErrorBody = { $ref: "#/components/schemas/V1Error" };
const error = (description: string) => ({ description, schema: v1ErrorBody });
const DAY_MS = 86_400_000;

/** The doctor id (user id) of each provider the answer names. */
async function doctorIds(practice: Practice, principal: Principal): Promise<Map<number, number>> {
  return new Map((await practice.directory.listProviders(principal)).map((p) => [p.id, p.userId]));
}

/**
 * v1 blocks (spec 4.7's doctor block create, list, delete, and 9.4's modify-block and recurring series edits), over
 * the blocks of /v2: one-off or recurring by RRULE, listed as occurrences, edited and deleted with a scope.
 */
export function v1BlockRoutes({ practice }: RouteDependencies): RouteDefinition[] {
  const route = routeGroup({
    contract: "v1",
    tags: ["Blocks (v1)"],
    auth: true,
    scopes: scopePair("schedules"),
    fieldNames: V1_BLOCK_FIELDS,
  });
  const writeView = async (
    principal: Principal,
    r: {
      block: ProviderBlock;
      created: ProviderBlock | null;
      overlapping: Parameters<typeof overlappedView>[0][];
      overlappingCount: number;
    },
  ) => {
    const doctors = await doctorIds(practice, principal);
    const doctorOf = (b: ProviderBlock) => doctors.get(b.providerId) as number;
    return {
      block: v1BlockView(r.block, doctorOf(r.block)),
      created_block: r.created ? v1BlockView(r.created, doctorOf(r.created)) : null,
      overlapping_appointments: r.overlapping.map(overlappedView),
      overlapping_count: r.overlappingCount,
    };
  };
  return [
    route({
      method: "POST",
      path: "/apis/v1/doctor/:doctor_id/blocks",
      ids: { doctor_id: DOCTOR_ID },
      auditResource: "provider_block",
      auditNamesCreated: true,
      operationId: "v1CreateBlock",
      summary:
        "Block a doctor's time, once or recurring by RRULE (wall-clock times kept in time_zone across daylight saving). Booked appointments it covers are listed, never cancelled.",
      access: "write",
      requestBody: v1BlockCreateSchema,
      responses: {
        "200": {
          description: "The block and the appointments it covers",
          schema: v1EnvelopeSchema(v1BlockWriteSchema),
        },
        "400": error(
          "VALIDATION_FAILED naming the field: end before start, a malformed or unbounded rrule, no time_zone with an rrule",
        ),
      },
      async handle(ctx) {
        const b = await ctx.body();
        const provider = await practice.providers.getByUserId(ctx.principal, ctx.ids.doctor_id);
        const created = await practice.blocks.create(ctx.principal, provider.id, {
          startsAt: new Date(b.start),
          endsAt: new Date(b.end),
          reason: b.reason,
          timeZone: b.time_zone,
          rrule: b.rrule,
        });
        return v1Success(await writeView(ctx.principal, { ...created, created: null }));
      },
    }),
    route({
      method: "GET",
      path: "/apis/v1/blocks",
      operationId: "v1ListBlocks",
      summary:
        "Blocked time in [from, to) by doctor or clinic: one-off blocks, and each recurring block as its occurrences with its series id and occurrence date, exceptions applied.",
      access: "read",
      query: v1BlockListQuery,
      responses: {
        "200": { description: "The occurrences, by start", schema: v1EnvelopeSchema(arrayOf(v1OccurrenceSchema)) },
      },
      async handle(ctx) {
        const q = ctx.query();
        const from = q.from ? new Date(q.from) : practice.clock.now();
        const to = q.to ? new Date(q.to) : new Date(from.getTime() + 31 * DAY_MS);
        const found = await practice.blockSeries.occurrences(ctx.principal, {
          doctorId: q.doctor_id,
          clinicId: q.clinic_id,
          from,
          to,
        });
        const doctors = await doctorIds(practice, ctx.principal);
        return v1Success(found.map((o) => v1OccurrenceView(o, doctors.get(o.block.providerId) as number)));
      },
    }),
    route({
      method: "POST",
      path: "/apis/v1/blocks/:block_id/modify",
      ids: { block_id: BLOCK_ID },
      auditResource: "provider_block",
      operationId: "v1ModifyBlock",
      summary:
        "modify-block: one occurrence (scope this: it becomes an exception), this and the following (the series is split there), or all of a series; a one-off block by its start and end. The audit action names the scope.",
      access: "write",
      requestBody: v1BlockModifySchema,
      responses: {
        "200": {
          description: "The block, the one a split made, the appointments newly covered",
          schema: v1EnvelopeSchema(v1BlockWriteSchema),
        },
        "400": error(
          "VALIDATION_FAILED naming the field: scope, an occurrence_date not in the series, an end before the start",
        ),
      },
      async handle(ctx) {
        const b = await ctx.body();
        const result = await practice.blockSeries.edit(ctx.principal, ctx.ids.block_id, {
          scope: b.scope,
          occurrenceDate: b.occurrence_date,
          startTime: b.start_time,
          endTime: b.end_time,
          startsAt: b.start === undefined ? undefined : new Date(b.start),
          endsAt: b.end === undefined ? undefined : new Date(b.end),
          reason: b.reason,
        });
        return v1Success(await writeView(ctx.principal, result));
      },
    }),
    route({
      method: "DELETE",
      path: "/apis/v1/blocks/:block_id",
      ids: { block_id: BLOCK_ID },
      auditResource: "provider_block",
      operationId: "v1DeleteBlock",
      summary:
        "Delete a block, or with scope: this occurrence, this and the following (the series ends before it), or all. Freed time is offered to the waitlist.",
      access: "write",
      query: v1BlockDeleteQuery,
      responses: {
        "200": { description: "The block after the deletion", schema: v1EnvelopeSchema(v1BlockSchema) },
        "400": error("VALIDATION_FAILED naming scope or occurrence_date"),
      },
      async handle(ctx) {
        const q = ctx.query();
        const block = await practice.blockSeries.remove(ctx.principal, ctx.ids.block_id, {
          scope: q.scope,
          occurrenceDate: q.occurrence_date,
        });
        const doctors = await doctorIds(practice, ctx.principal);
        return v1Success(v1BlockView(block, doctors.get(block.providerId) as number));
      },
    }),
  ];
}
