import { SLOT_LIMITS, slotText } from "@openpractice/core";
import type { FieldNames } from "../contracts/field-names.js";
import { jsonResponse } from "../contracts/json-response.js";
import { STORED_ID_DIGITS, V2_META_SCHEMA, v2Meta } from "../contracts/v2-contract.js";
import { routeGroup, scopePair } from "../define-route.js";
import { arrayOf, described, idText, plainText, replyObject, textOrNull } from "../openapi/reply-schemas.js";
import type { RouteDefinition, RouteDependencies } from "../route.js";

const v2SlotQuerySchema = {
  type: "object",
  additionalProperties: false,
  required: ["provider_id", "clinic_id"],
  properties: {
    provider_id: {
      type: "string",
      pattern: `^${STORED_ID_DIGITS}(,${STORED_ID_DIGITS}){0,19}$`,
      description: "One provider id, or up to 20 separated by commas",
    },
    clinic_id: { type: "integer", minimum: 1 },
    appointment_type_id: { type: "integer", minimum: 1, description: "Its duration sets the slot length" },
    slot_length: {
      type: "integer",
      minimum: SLOT_LIMITS.minLength,
      maximum: SLOT_LIMITS.maxLength,
      description: "Minutes (instead of appointment_type_id)",
    },
    slot_interval: {
      type: "integer",
      minimum: 5,
      maximum: SLOT_LIMITS.maxLength,
      description: "Minutes between candidate starts; default the slot length",
    },
    start_date: { type: "string", format: "date", description: "The first day, in the clinic's zone; default today" },
    days: { type: "integer", minimum: 1, maximum: SLOT_LIMITS.maxDays, default: 7 },
  },
} as const;

const providerSlotsSchema = replyObject(
  {
    provider_id: idText,
    clinic_id: idText,
    time_zone: plainText,
    slots: arrayOf(plainText, "Start times, ISO 8601 with the clinic's offset on that day"),
    next_available_date: described(
      textOrNull,
      "With no slot in the range: the first day with one (searching 90 days from start_date), else null",
    ),
  },
  {
    title: "ProviderSlots",
    examples: [
      {
        provider_id: "7",
        clinic_id: "3",
        time_zone: "America/New_York",
        slots: ["2026-03-09T09:00:00-04:00", "2026-03-09T09:30:00-04:00"],
        next_available_date: null,
      },
    ],
  },
);

const V2_SLOT_FIELDS: FieldNames = Object.freeze({
  providerIds: "provider_id",
  slotLength: "slot_length",
  startDate: "start_date",
});

/** GET /v2/slots (spec 4.7): where an appointment fits. */
export function v2SlotRoutes({ practice }: RouteDependencies): RouteDefinition[] {
  const route = routeGroup({
    contract: "v2",
    tags: ["Scheduling (v2 beta)"],
    auth: true,
    scopes: scopePair("appointments"),
    rateLimitBucket: "v2",
    fieldNames: V2_SLOT_FIELDS,
  });
  return [
    route({
      method: "GET",
      path: "/v2/slots",
      readsOnly: true,
      operationId: "v2ListSlots",
      summary:
        "Bookable slots per provider at a clinic: inside working hours, outside blocks and appointments that hold time, not in the past.",
      access: "read",
      query: v2SlotQuerySchema,
      responses: {
        "200": {
          description: "Slots per provider, in the order asked",
          schema: replyObject({ data: arrayOf(providerSlotsSchema), meta: V2_META_SCHEMA }),
        },
      },
      async handle(ctx) {
        const q = ctx.query();
        const found = await practice.slots.find(ctx.principal, {
          providerIds: q.provider_id.split(",").map(Number),
          clinicId: q.clinic_id,
          appointmentTypeId: q.appointment_type_id,
          slotLength: q.slot_length,
          slotInterval: q.slot_interval,
          startDate: q.start_date,
          days: q.days,
        });
        return jsonResponse(200, {
          data: found.map((p) => ({
            provider_id: String(p.providerId),
            clinic_id: String(p.clinicId),
            time_zone: p.timeZone,
            slots: p.slots.map((s) => slotText(s, p.timeZone)),
            next_available_date: p.nextAvailableDate,
          })),
          meta: v2Meta(ctx),
        });
      },
    }),
  ];
}
