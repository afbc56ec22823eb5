import type { ActionInput } from "@openpractice/core";
import { V1_PAGINATION_SCHEMA, v1EnvelopeSchema, v1Pagination, v1Success } from "../contracts/v1-contract.js";
import { arrayOf, replyObject } from "../openapi/reply-schemas.js";
import { routeGroup, scopePair } from "../define-route.js";
import type { RouteDefinition, RouteDependencies } from "../route.js";
import {
  APPOINTMENT_ID,
  V1_APPOINTMENT_FIELDS,
  v1AppointmentCancelSchema,
  v1AppointmentCreateSchema,
  v1AppointmentHistorySchema,
  v1AppointmentListQuerySchema,
  v1AppointmentOutcomeSchema,
  v1AppointmentRescheduleSchema,
  v1AppointmentSchema,
  v1AppointmentView,
  v1CancellationFromBody,
  v1DraftFromBody,
  v1HistoryView,
  v1OutcomeView,
  v1ListQuery,
  v1RescheduleFromBody,
} from "./v1-appointment-contract.js";

const envelope = v1EnvelopeSchema;
const v1ErrorBody = { $ref: "#/components/schemas/V1Error" };
const errors = {
  "400": {
    description: "VALIDATION_FAILED, UNKNOWN_REFERENCE or INVALID_PARAMETER, naming the field",
    schema: v1ErrorBody,
  },
  "409": {
    description: "INVALID_TRANSITION (names the current status) or SCHEDULE_CONFLICT (names the other appointment)",
    schema: v1ErrorBody,
  },
};

/** The status actions with an empty body: path segment, action, summary. */
const SIMPLE_ACTIONS = [
  ["check-in", "CHECK_IN", "Check the patient in (SCHEDULED → CHECKED_IN)."],
  ["start", "START", "Start the visit (CHECKED_IN → IN_PROGRESS)."],
  ["check-out", "CHECK_OUT", "Check the patient out (CHECKED_IN or IN_PROGRESS → CHECKED_OUT)."],
  ["no-show", "NO_SHOW", "Mark a no-show once the start time has passed (SCHEDULED → NO_SHOW)."],
] as const;

export function v1AppointmentRoutes({ practice }: RouteDependencies): RouteDefinition[] {
  const route = routeGroup({
    contract: "v1",
    tags: ["Appointments (v1)"],
    auth: true,
    scopes: scopePair("appointments"),
    fieldNames: V1_APPOINTMENT_FIELDS,
  });
  const ids = { appointment_id: APPOINTMENT_ID };
  const one = envelope(v1AppointmentSchema);
  const outcome = envelope(v1AppointmentOutcomeSchema);
  return [
    route({
      method: "POST",
      path: "/apis/v1/appointment",
      operationId: "v1CreateAppointment",
      summary:
        "Book an appointment (status SCHEDULED). A doctor's overlapping booking is refused with SCHEDULE_CONFLICT unless the clinic allows double booking.",
      access: "write",
      requestBody: v1AppointmentCreateSchema,
      responses: { "200": { description: "The new appointment", schema: outcome }, ...errors },
      async handle(ctx) {
        return v1Success(
          v1OutcomeView(await practice.appointments.book(ctx.principal, v1DraftFromBody(await ctx.body()))),
        );
      },
    }),
    route({
      method: "GET",
      path: "/apis/v1/appointments",
      operationId: "v1ListAppointments",
      summary: "List appointments by start time, paginated and filterable.",
      access: "read",
      query: v1AppointmentListQuerySchema,
      responses: {
        "200": {
          description: "A page of appointments",
          schema: envelope(
            replyObject({ appointments: arrayOf(v1AppointmentSchema), pagination: V1_PAGINATION_SCHEMA }),
          ),
        },
        "400": errors["400"],
      },
      async handle(ctx) {
        const page = await practice.appointments.list(ctx.principal, v1ListQuery(ctx.query()));
        return v1Success({ appointments: page.appointments.map(v1AppointmentView), pagination: v1Pagination(page) });
      },
    }),
    route({
      method: "GET",
      path: "/apis/v1/appointment/:appointment_id",
      ids,
      operationId: "v1GetAppointment",
      summary: "Read an appointment.",
      access: "read",
      responses: { "200": { description: "The appointment", schema: one } },
      async handle(ctx) {
        return v1Success(v1AppointmentView(await practice.appointments.get(ctx.principal, ctx.ids.appointment_id)));
      },
    }),
    route({
      method: "GET",
      path: "/apis/v1/appointment/:appointment_id/history",
      ids,
      operationId: "v1GetAppointmentHistory",
      summary: "The appointment's audit trail: every booking, status change and reschedule, with who and when.",
      access: "read",
      responses: {
        "200": { description: "History entries, oldest first", schema: envelope(arrayOf(v1AppointmentHistorySchema)) },
      },
      async handle(ctx) {
        return v1Success(
          (await practice.appointments.history(ctx.principal, ctx.ids.appointment_id)).map(v1HistoryView),
        );
      },
    }),
    route({
      method: "POST",
      path: "/apis/v1/appointment/appointment-cancel/:appointment_id",
      ids,
      operationId: "v1CancelAppointment",
      summary:
        "Cancel with one of the organisation's reasons and a fee (default: the reason's fee). Refused when already cancelled, in progress or checked out.",
      access: "write",
      requestBody: v1AppointmentCancelSchema,
      responses: { "200": { description: "The cancelled appointment", schema: outcome }, ...errors },
      async handle(ctx) {
        const id = ctx.ids.appointment_id;
        const input: ActionInput = { action: "CANCEL", cancellation: v1CancellationFromBody(await ctx.body()) };
        return v1Success(v1OutcomeView(await practice.appointments.act(ctx.principal, id, input)));
      },
    }),
    route({
      method: "POST",
      path: "/apis/v1/appointment/:appointment_id/reschedule",
      ids,
      operationId: "v1RescheduleAppointment",
      summary: "Move a SCHEDULED or NO_SHOW appointment to new times (status SCHEDULED); the new slot must be free.",
      access: "write",
      requestBody: v1AppointmentRescheduleSchema,
      responses: { "200": { description: "The rescheduled appointment", schema: outcome }, ...errors },
      async handle(ctx) {
        const id = ctx.ids.appointment_id;
        const input: ActionInput = { action: "RESCHEDULE", ...v1RescheduleFromBody(await ctx.body()) };
        return v1Success(v1OutcomeView(await practice.appointments.act(ctx.principal, id, input)));
      },
    }),
    ...SIMPLE_ACTIONS.map(([segment, action, summary]) =>
      route({
        method: "POST",
        path: `/apis/v1/appointment/:appointment_id/${segment}`,
        ids,
        operationId: `v1Appointment${action.toLowerCase().replace(/(^|_)(\w)/g, (_m, _s, c: string) => c.toUpperCase())}`,
        summary: `${summary} No request body.`,
        access: "write",
        responses: { "200": { description: "The appointment in its new status", schema: outcome }, ...errors },
        async handle(ctx) {
          return v1Success(
            v1OutcomeView(await practice.appointments.act(ctx.principal, ctx.ids.appointment_id, { action })),
          );
        },
      }),
    ),
  ];
}
