import { parseServiceCaseId } from "@openpractice/core";
import { pathIdKind } from "../contracts/path-id.js";
import { v1EnvelopeSchema, v1Success } from "../contracts/v1-contract.js";
import { routeGroup, scopePair } from "../define-route.js";
import { PATIENT_ID } from "../patients/v1-patient-routes.js";
import type { RouteDefinition, RouteDependencies } from "../route.js";
import {
  V1_CARD_FIELDS,
  V1_CASE_FIELDS,
  v1CaseChangesFromBody,
  v1CaseCreateSchema,
  v1CaseDraftFromBody,
  v1CaseSchema,
  v1CaseUpdateSchema,
  v1CaseView,
  v1InsuranceCardCreateSchema,
  v1InsuranceCardSchema,
  v1InsuranceCardView,
} from "./v1-case-contract.js";
import { arrayOf, plainText } from "../openapi/reply-schemas.js";

export const CASE_SCOPES = scopePair("cases");
const BASE = "/apis/soap-enrichment/v1";
const v1ErrorBody = { $ref: "#/components/schemas/V1Error" };
const caseBody = v1EnvelopeSchema(v1CaseSchema);

/** A case id in a path (or a query): 12 or SERVICE_CASE_12; anything else is a case that does not exist. */
export const CASE_ID = pathIdKind("CASE_NOT_FOUND", "service_case_id", parseServiceCaseId);

export function v1CaseRoutes({ practice }: RouteDependencies): RouteDefinition[] {
  const route = routeGroup({
    contract: "v1",
    tags: ["Cases (v1)"],
    auth: true,
    scopes: CASE_SCOPES,
    fieldNames: V1_CASE_FIELDS,
  });
  const errors = {
    "400": {
      description: "VALIDATION_FAILED (field named), UNKNOWN_REFERENCE (insurance card), CLINIC_NOT_FOUND",
      schema: v1ErrorBody,
    },
    "404": {
      description:
        "CASE_NOT_FOUND, PATIENT_NOT_FOUND or REFERRING_PHYSICIAN_NOT_FOUND (another organisation's included)",
      schema: v1ErrorBody,
    },
  };
  return [
    route({
      method: "POST",
      path: `${BASE}/patientCase`,
      operationId: "v1CreateCase",
      summary:
        "Open a case (spec 4.2). Emits case.created. Referring physicians are resolved from the registry by referring_physician_id.",
      access: "write",
      requestBody: v1CaseCreateSchema,
      responses: { "200": { description: "The case", schema: caseBody }, ...errors },
      async handle(ctx) {
        return v1Success(v1CaseView(await practice.cases.create(ctx.principal, v1CaseDraftFromBody(await ctx.body()))));
      },
    }),
    route({
      method: "GET",
      path: `${BASE}/patientCase`,
      operationId: "v1ListPatientCases",
      summary: "A patient's cases, newest first (`patient_id` required).",
      access: "read",
      query: {
        type: "object",
        additionalProperties: false,
        required: ["patient_id"],
        properties: { patient_id: { type: "integer", minimum: 1 } },
      },
      responses: {
        "200": { description: "Cases", schema: v1EnvelopeSchema(arrayOf(v1CaseSchema)) },
        "404": errors["404"],
      },
      async handle(ctx) {
        return v1Success((await practice.cases.listByPatient(ctx.principal, ctx.query().patient_id)).map(v1CaseView));
      },
    }),
    route({
      method: "GET",
      path: `${BASE}/patientCase/:id`,
      ids: { id: CASE_ID },
      operationId: "v1GetCase",
      summary: "Read a case; `id` is the case id or its service_case_id (SERVICE_CASE_<id>).",
      access: "read",
      responses: { "200": { description: "The case", schema: caseBody }, "404": errors["404"] },
      async handle(ctx) {
        return v1Success(v1CaseView(await practice.cases.get(ctx.principal, ctx.ids.id)));
      },
    }),
    route({
      method: "POST",
      path: `${BASE}/patientCase/:id`,
      ids: { id: CASE_ID },
      operationId: "v1UpdateCase",
      summary:
        "Partial update: omitted fields keep their values; lists given replace the whole list. Discharging emits case.discharged, other changes case.updated.",
      access: "write",
      requestBody: v1CaseUpdateSchema,
      responses: { "200": { description: "The case", schema: caseBody }, ...errors },
      async handle(ctx) {
        const id = ctx.ids.id;
        return v1Success(
          v1CaseView(await practice.cases.update(ctx.principal, id, v1CaseChangesFromBody(await ctx.body()))),
        );
      },
    }),
    route({
      method: "GET",
      path: `${BASE}/specializations`,
      operationId: "v1ListSpecializations",
      summary: "The specializations enabled for the organisation (a case's specialization must be one of them).",
      access: "read",
      responses: {
        "200": {
          description: "Specialization codes",
          schema: v1EnvelopeSchema(arrayOf(plainText)),
        },
      },
      async handle(ctx) {
        return v1Success(await practice.catalog.specializations(ctx.principal));
      },
    }),
    route({
      tags: ["Insurance cards (v1)"],
      fieldNames: V1_CARD_FIELDS,
      method: "GET",
      path: "/apis/v1/patient/:id/insurance-cards",
      ids: { id: PATIENT_ID },
      operationId: "v1GetInsuranceCards",
      summary: "Get Insurance Cards: the patient's cards, oldest first; a case copies the ones it names.",
      access: "read",
      responses: {
        "200": { description: "Cards", schema: v1EnvelopeSchema(arrayOf(v1InsuranceCardSchema)) },
        "404": { description: "PATIENT_NOT_FOUND", schema: v1ErrorBody },
      },
      async handle(ctx) {
        return v1Success((await practice.insuranceCards.list(ctx.principal, ctx.ids.id)).map(v1InsuranceCardView));
      },
    }),
    route({
      tags: ["Insurance cards (v1)"],
      fieldNames: V1_CARD_FIELDS,
      method: "POST",
      path: "/apis/v1/patient/:id/insurance-cards",
      ids: { id: PATIENT_ID },
      operationId: "v1AddInsuranceCard",
      summary: "Add an insurance card (payer, member number, plan dates) to a patient.",
      access: "write",
      requestBody: v1InsuranceCardCreateSchema,
      responses: {
        "200": { description: "The card", schema: v1EnvelopeSchema(v1InsuranceCardSchema) },
        "400": errors["400"],
        "404": { description: "PATIENT_NOT_FOUND", schema: v1ErrorBody },
      },
      async handle(ctx) {
        const patientId = ctx.ids.id;
        const b = await ctx.body();
        const card = await practice.insuranceCards.add(ctx.principal, patientId, {
          payer: {
            payerRegId: b.insurance_payer.payer_reg_id ?? null,
            name: b.insurance_payer.name,
            payerId: b.insurance_payer.payer_id ?? null,
          },
          insuranceNumber: b.insurance_number,
          planStartDate: b.plan_start_date,
          planEndDate: b.plan_end_date,
        });
        return v1Success(v1InsuranceCardView(card));
      },
    }),
  ];
}
