import type { Clinic } from "@openpractice/core";
import { pathIdKind } from "../contracts/path-id.js";
import { v1EnvelopeSchema, v1Success } from "../contracts/v1-contract.js";
import { routeGroup, scopePair } from "../define-route.js";
import type { RouteDefinition, RouteDependencies } from "../route.js";
import {
  v1CancellationReasonView,
  v1CategoryView,
  V1_APPOINTMENT_FIELDS,
  v1ClinicSettingsSchema,
} from "./v1-appointment-contract.js";

const CLINIC_ID = pathIdKind("CLINIC_NOT_FOUND", "clinic_id");

const envelope = v1EnvelopeSchema;
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
          schema: envelope({
            type: "array",
            items: {
              type: "object",
              properties: {
                id: { type: "integer" },
                name: { type: "string" },
                type: { type: "string" },
                duration_minutes: { type: "integer" },
              },
            },
          }),
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
          schema: envelope({
            type: "array",
            items: {
              type: "object",
              properties: {
                id: { type: "integer" },
                reason_key: { type: "string" },
                reason_label: { type: "string" },
                cancellation_fee: { type: "number" },
                status: { type: "string", enum: ["ACTIVE", "INACTIVE"] },
              },
            },
          }),
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
      responses: { "200": { description: "Clinics", schema: envelope({ type: "array" }) } },
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
        "200": { description: "The clinic", schema: envelope({ type: "object" }) },
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
      responses: { "200": { description: "Providers", schema: envelope({ type: "array" }) } },
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
