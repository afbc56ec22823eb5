import type { Clinic } from "@openpractice/core";
import { pathIdKind } from "../contracts/path-id.js";
import { v1EnvelopeSchema, v1Success } from "../contracts/v1-contract.js";
import { routeGroup, scopePair } from "../define-route.js";
import type { RouteDefinition, RouteDependencies } from "../route.js";
import {
  arrayOf,
  boolean,
  described,
  id,
  idOrNull,
  replyObject,
  plainText,
  textOrNull,
} from "../openapi/reply-schemas.js";
import {
  v1CancellationReasonSchema,
  v1CancellationReasonView,
  v1CategorySchema,
  v1CategoryView,
  V1_APPOINTMENT_FIELDS,
  v1ClinicSettingsSchema,
} from "./v1-appointment-contract.js";

const CLINIC_ID = pathIdKind("CLINIC_NOT_FOUND", "clinic_id");

const envelope = v1EnvelopeSchema;

/** A clinic as v1 lists it, with its booking settings. */
const V1_CLINIC_SCHEMA = replyObject(
  {
    clinic_id: id,
    name: plainText,
    time_zone: described(plainText, "IANA time zone"),
    allow_double_booking: boolean,
    visit_limit_warning_only: boolean,
  },
  {
    title: "V1Clinic",
    examples: [
      {
        clinic_id: 3,
        name: "Lakeview Physical Therapy",
        time_zone: "America/Chicago",
        allow_double_booking: false,
        visit_limit_warning_only: false,
      },
    ],
  },
);

/** A provider as v1 lists it: doctor_id is the user id. */
const V1_PROVIDER_SCHEMA = replyObject(
  {
    doctor_id: described(id, "The provider's user id"),
    first_name: plainText,
    last_name: plainText,
    npi: textOrNull,
    supervising_physician_id: described(idOrNull, "The supervising physician's user id"),
    clinic_ids: arrayOf(id),
  },
  {
    title: "V1Provider",
    examples: [
      {
        doctor_id: 9001,
        first_name: "Priya",
        last_name: "Raman",
        npi: "1234567893",
        supervising_physician_id: null,
        clinic_ids: [3, 4],
      },
    ],
  },
);
const v1ErrorBody = { $ref: "#/components/schemas/V1Error" };

/** Reference data appointments use, and the organisation's clinics and providers. */
export function v1CatalogRoutes({ practice }: RouteDependencies): RouteDefinition[] {
  // The directory is read with the appointments scopes (what booking needs); its settings are the clinics' own.
  const route = routeGroup({
    contract: "v1",
    tags: ["Appointments (v1)"],
    auth: true,
    scopes: scopePair("appointments"),
  });
  const clinicView = (c: Clinic) => ({
    clinic_id: c.id,
    name: c.name,
    time_zone: c.timeZone,
    allow_double_booking: c.allowDoubleBooking,
    visit_limit_warning_only: c.visitLimitWarningOnly,
  });
  return [
    route({
      method: "GET",
      path: "/apis/v1/appointment/categories",
      operationId: "v1ListAppointmentCategories",
      summary: "The organisation's appointment categories and their types.",
      access: "read",
      responses: {
        "200": {
          description: "Categories",
          schema: envelope(arrayOf(v1CategorySchema)),
        },
      },
      async handle(ctx) {
        return v1Success((await practice.catalog.appointmentCategories(ctx.principal)).map(v1CategoryView));
      },
    }),
    route({
      method: "GET",
      path: "/apis/v1/appointment/appointment-cancellation",
      operationId: "v1ListCancellationReasons",
      summary: "The organisation's cancellation reasons and fees.",
      access: "read",
      responses: {
        "200": {
          description: "Reasons",
          schema: envelope(arrayOf(v1CancellationReasonSchema)),
        },
      },
      async handle(ctx) {
        return v1Success((await practice.catalog.cancellationReasons(ctx.principal)).map(v1CancellationReasonView));
      },
    }),
    route({
      tags: ["Clinics and providers (v1)"],
      method: "GET",
      path: "/apis/v1/clinics",
      operationId: "v1ListClinics",
      summary: "The organisation's clinics with their settings.",
      access: "read",
      responses: { "200": { description: "Clinics", schema: envelope(arrayOf(V1_CLINIC_SCHEMA)) } },
      async handle(ctx) {
        return v1Success((await practice.directory.listClinics(ctx.principal)).map(clinicView));
      },
    }),
    route({
      tags: ["Clinics and providers (v1)"],
      method: "POST",
      path: "/apis/v1/clinic/:clinic_id/settings",
      ids: { clinic_id: CLINIC_ID },
      operationId: "v1UpdateClinicSettings",
      summary:
        "Change a clinic's settings (omitted ones keep their values): allow_double_booking (default false: overlapping bookings of a doctor are refused) and visit_limit_warning_only (default false: visits over a case's limit are refused).",
      scopes: scopePair("clinics").write,
      fieldNames: V1_APPOINTMENT_FIELDS,
      requestBody: v1ClinicSettingsSchema,
      responses: {
        "200": { description: "The clinic", schema: envelope(V1_CLINIC_SCHEMA) },
        "400": { description: "Validation error or CLINIC_NOT_FOUND", schema: v1ErrorBody },
      },
      async handle(ctx) {
        const body = await ctx.body();
        const settings = {
          allowDoubleBooking: body.allow_double_booking,
          visitLimitWarningOnly: body.visit_limit_warning_only,
        };
        return v1Success(
          clinicView(await practice.directory.updateClinicSettings(ctx.principal, ctx.ids.clinic_id, settings)),
        );
      },
    }),
    route({
      tags: ["Clinics and providers (v1)"],
      method: "GET",
      path: "/apis/v1/providers",
      operationId: "v1ListProviders",
      summary: "The organisation's providers (doctor_id is the user id) with their clinics and supervising physician.",
      access: "read",
      responses: { "200": { description: "Providers", schema: envelope(arrayOf(V1_PROVIDER_SCHEMA)) } },
      async handle(ctx) {
        return v1Success(
          (await practice.directory.listProviders(ctx.principal)).map((p) => ({
            doctor_id: p.userId,
            first_name: p.firstName,
            last_name: p.lastName,
            npi: p.npi,
            supervising_physician_id: p.supervisingUserId,
            clinic_ids: p.clinicIds,
          })),
        );
      },
    }),
  ];
}
