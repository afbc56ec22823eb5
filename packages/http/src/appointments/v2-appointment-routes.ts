import {
  type Appointment,
  type AppointmentOutcome,
  type AppointmentSortField,
  DomainError,
  hasAnyScope,
  parseServiceCaseId,
  type Principal,
  requireServiceCaseId,
} from "@openpractice/core";
import { jsonResponse } from "../contracts/json-response.js";
import { v2FieldList, v2ListBody, v2ListSchema, v2Project } from "../contracts/v2-contract.js";
import { routeGroup, scopePair } from "../define-route.js";
import { v2PatientView } from "../patients/v2-patient-contract.js";
import { PATIENT_SCOPES } from "../patients/v1-patient-routes.js";
import { v2ProviderView } from "../providers/v2-provider-routes.js";
import type { RouteDefinition, RouteDependencies } from "../route.js";
import { APPOINTMENT_ID } from "./v1-appointment-contract.js";
import {
  V2_APPOINTMENT_FIELDS,
  type V2AppointmentExpansion,
  v2AppointmentCancelSchema,
  v2AppointmentCreatedSchema,
  v2AppointmentCreateSchema,
  v2AppointmentListQuerySchema,
  v2AppointmentReadQuerySchema,
  v2AppointmentReadSchema,
  v2AppointmentView,
} from "./v2-appointment-contract.js";

const v2ErrorBody = { $ref: "#/components/schemas/V2Error" };
const PROVIDER_SCOPES = scopePair("providers");
const EXPANSION_SCOPES: Record<V2AppointmentExpansion, readonly string[]> = {
  patient: PATIENT_SCOPES.read,
  provider: PROVIDER_SCOPES.read,
};
const when = (raw: string | undefined) => (raw === undefined ? undefined : new Date(raw));

/**
 * v2 appointments (spec 4.7): the v1 appointment domain in v2's shapes. Booking goes through the scheduling
 * service (working hours, named slots); reads and status changes through the appointment service, so an
 * appointment booked on either version reads on both and raises the same appointment.* events.
 */
export function v2AppointmentRoutes({ practice }: RouteDependencies): RouteDefinition[] {
  /** Views of the appointments with `fields` and `expand` applied; each expansion needs its resource's read scope. */
  async function render(
    principal: Principal,
    q: { readonly fields?: string | undefined; readonly expand?: string | undefined },
    appointments: readonly Appointment[],
  ) {
    const expand = (v2FieldList(q.expand) ?? []) as V2AppointmentExpansion[];
    for (const e of expand) {
      if (!hasAnyScope(principal, EXPANSION_SCOPES[e]))
        throw new DomainError(
          "INSUFFICIENT_PERMISSIONS",
          `expand=${e} needs the ${EXPANSION_SCOPES[e].join(" or ")} scope`,
          {
            required_scope: EXPANSION_SCOPES[e][0],
            accepted_scopes: [...EXPANSION_SCOPES[e]],
            current_scopes: [...principal.scopes],
          },
        );
    }
    const providers = await practice.appointments.providersOf(principal, appointments);
    const patients = new Map<number, Record<string, unknown>>();
    if (expand.includes("patient"))
      for (const id of new Set(appointments.map((a) => a.patientId)))
        patients.set(id, v2PatientView(await practice.patients.get(principal, id)));
    const fields = v2FieldList(q.fields);
    return appointments.map((a) => {
      const view = v2Project(v2AppointmentView(a, providers), fields);
      if (expand.includes("patient")) view.patient = patients.get(a.patientId) ?? null;
      if (expand.includes("provider")) {
        const provider = providers.get(a.doctorId);
        view.provider = provider ? v2ProviderView(provider) : null;
      }
      return view;
    });
  }
  const outcomeView = async (principal: Principal, o: AppointmentOutcome) => ({
    ...v2AppointmentView(o.appointment, await practice.appointments.providersOf(principal, [o.appointment])),
    warnings: o.warnings.map((w) => ({ code: w.code, message: w.message, details: w.details })),
  });

  const route = routeGroup({
    contract: "v2",
    tags: ["Appointments (v2 beta)"],
    auth: true,
    scopes: scopePair("appointments"),
    rateLimitBucket: "v2",
    fieldNames: V2_APPOINTMENT_FIELDS,
  });
  const ids = { appointment_id: APPOINTMENT_ID };
  const notFound = { description: "APPOINTMENT_NOT_FOUND", schema: v2ErrorBody };
  const refused = {
    description: "INVALID_TRANSITION: details name the current status and the allowed actions",
    schema: v2ErrorBody,
  };
  const actions = [
    ["check-in", "CHECK_IN", "v2CheckInAppointment", "Check the patient in (scheduled → checked_in)."],
    [
      "check-out",
      "CHECK_OUT",
      "v2CheckOutAppointment",
      "Check the patient out (checked_in or in_progress → checked_out).",
    ],
  ] as const;
  return [
    route({
      method: "POST",
      path: "/v2/appointments",
      auditResource: "appointment",
      operationId: "v2CreateAppointment",
      summary:
        "Book: at a slot GET /v2/slots offered (slot_start; 409 SLOT_UNAVAILABLE when taken in between) or at a start inside working hours (409 OUTSIDE_WORKING_HOURS unless the token may override). payment_mode is required.",
      access: "write",
      requestBody: v2AppointmentCreateSchema,
      responses: {
        "201": {
          description: "The booked appointment and any visit-limit warnings",
          schema: v2AppointmentCreatedSchema,
        },
        "409": {
          description: "SLOT_UNAVAILABLE, OUTSIDE_WORKING_HOURS or SCHEDULE_CONFLICT (details.reason and the times)",
          schema: v2ErrorBody,
        },
      },
      async handle(ctx) {
        const b = await ctx.body();
        const outcome = await practice.bookings.book(ctx.principal, {
          patientId: Number(b.patient_id),
          providerId: Number(b.provider_id),
          clinicId: Number(b.clinic_id),
          appointmentTypeId: Number(b.appointment_type_id),
          slotStart: when(b.slot_start),
          start: when(b.start),
          end: when(b.end),
          paymentMode: b.payment_mode,
          serviceCaseId:
            b.service_case_id === undefined || b.service_case_id === null
              ? null
              : requireServiceCaseId(b.service_case_id, "serviceCaseId"),
          teleHealthUrl: b.telehealth_url,
          comments: b.comments,
          appointmentNotes: b.notes,
        });
        return jsonResponse(201, await outcomeView(ctx.principal, outcome), {
          location: `${ctx.basePath}/v2/appointments/${outcome.appointment.id}`,
        });
      },
    }),
    route({
      method: "GET",
      path: "/v2/appointments",
      readsOnly: true,
      operationId: "v2ListAppointments",
      summary:
        "Search appointments by provider, clinic, patient, case, status and start time; paginated, sorted (start, created_at, updated_at), with fields and expand.",
      access: "read",
      query: v2AppointmentListQuerySchema,
      responses: {
        "200": { description: "A page of appointments", schema: v2ListSchema(v2AppointmentReadSchema) },
        "404": { description: "PROVIDER_NOT_FOUND or CLINIC_NOT_FOUND (a filter names nothing)", schema: v2ErrorBody },
      },
      async handle(ctx) {
        const q = ctx.query();
        const provider =
          q.provider_id === undefined ? undefined : await practice.providers.get(ctx.principal, q.provider_id);
        if (q.clinic_id !== undefined) await practice.clinics.get(ctx.principal, q.clinic_id);
        const caseId = q.service_case_id === undefined ? undefined : parseServiceCaseId(q.service_case_id);
        // The pattern passed but the id is beyond any stored one: no case has it, so nothing matches.
        if (q.service_case_id !== undefined && caseId === undefined)
          throw DomainError.invalidParameter("service_case_id", q.service_case_id, "names no case");
        const page = await practice.appointments.list(ctx.principal, {
          page: q.page,
          size: q.per_page,
          doctorId: provider?.userId,
          clinicId: q.clinic_id,
          patientId: q.patient_id,
          serviceCaseId: caseId,
          statuses: q.status?.split(","),
          from: when(q.from),
          to: when(q.to),
          sort: q.sort as AppointmentSortField | undefined,
          order: q.order,
        });
        const views = await render(ctx.principal, q, page.appointments);
        return jsonResponse(
          200,
          v2ListBody(ctx, { page: page.page, perPage: page.size, total: page.total }, views, undefined),
        );
      },
    }),
    route({
      method: "GET",
      path: "/v2/appointments/:appointment_id",
      ids,
      readsOnly: true,
      operationId: "v2GetAppointment",
      summary: "Read an appointment, booked on v1 or v2; fields and expand as on the list.",
      access: "read",
      query: v2AppointmentReadQuerySchema,
      responses: { "200": { description: "The appointment", schema: v2AppointmentReadSchema }, "404": notFound },
      async handle(ctx) {
        const appointment = await practice.appointments.get(ctx.principal, ctx.ids.appointment_id);
        const [view] = await render(ctx.principal, ctx.query(), [appointment]);
        return jsonResponse(200, view);
      },
    }),
    route({
      method: "POST",
      path: "/v2/appointments/:appointment_id/cancel",
      ids,
      operationId: "v2CancelAppointment",
      summary:
        "Cancel with an active cancellation reason's key (spec section 9); the label and, unless given, the fee come from the reason.",
      access: "write",
      requestBody: v2AppointmentCancelSchema,
      responses: {
        "200": { description: "The cancelled appointment", schema: v2AppointmentCreatedSchema },
        "404": notFound,
        "409": refused,
      },
      async handle(ctx) {
        const b = await ctx.body();
        const outcome = await practice.appointments.act(ctx.principal, ctx.ids.appointment_id, {
          action: "CANCEL",
          cancellation: {
            reasonKey: b.reason_key,
            comment: b.comment ?? null,
            ...(b.fee === undefined ? {} : { fee: b.fee }),
          },
        });
        return jsonResponse(200, await outcomeView(ctx.principal, outcome));
      },
    }),
    ...actions.map(([segment, action, operationId, summary]) =>
      route({
        method: "POST",
        path: `/v2/appointments/:appointment_id/${segment}`,
        ids,
        operationId,
        summary: `${summary} No request body.`,
        access: "write",
        responses: {
          "200": { description: "The appointment in its new status", schema: v2AppointmentCreatedSchema },
          "404": notFound,
          "409": refused,
        },
        async handle(ctx) {
          const outcome = await practice.appointments.act(ctx.principal, ctx.ids.appointment_id, { action });
          return jsonResponse(200, await outcomeView(ctx.principal, outcome));
        },
      }),
    ),
  ];
}
