import type { CaseView, CoverageCaseDraft } from "@openpractice/core";
import { jsonResponse } from "../contracts/json-response.js";
import { routeGroup } from "../define-route.js";
import type { RouteDefinition, RouteDependencies } from "../route.js";
import { CASE_ID, CASE_SCOPES } from "./v1-case-routes.js";
import {
  caseChangesFromBody,
  V2_CASE_FIELDS,
  v2CaseCreateSchema,
  v2CaseSchema,
  v2CaseUpdateSchema,
  v2CaseView,
} from "./v2-case-contract.js";

const v2ErrorBody = { $ref: "#/components/schemas/V2Error" };

/**
 * Cases on v2 (spec 4.7): the cases v1 reads, with coverage pointers where v1 has card copies (spec 9) and ICD codes
 * by code. The id in paths is the service case id (SERVICE_CASE_12, or 12).
 */
export function v2CaseRoutes({ practice }: RouteDependencies): RouteDefinition[] {
  const route = routeGroup({
    contract: "v2",
    tags: ["Cases (v2 beta)"],
    auth: true,
    scopes: CASE_SCOPES,
    rateLimitBucket: "v2",
    fieldNames: V2_CASE_FIELDS,
  });
  const withWarnings = async (view: CaseView) => v2CaseView(view, await practice.eligibility.caseWarnings(view));
  const errors = {
    "400": {
      description:
        "VALIDATION_FAILED (field named: an ICD code outside the loaded code set, a specialization not enabled), UNKNOWN_REFERENCE (a coverage not of the patient), CLINIC_NOT_FOUND",
      schema: v2ErrorBody,
    },
    "404": {
      description:
        "CASE_NOT_FOUND, PATIENT_NOT_FOUND or REFERRING_PHYSICIAN_NOT_FOUND (another organisation's included)",
      schema: v2ErrorBody,
    },
  };
  return [
    route({
      method: "POST",
      path: "/v2/cases",
      auditResource: "case",
      operationId: "v2CreateCase",
      summary: "Open a case for a patient, pointing at the patient's coverages. Emits case.created.",
      access: "write",
      requestBody: v2CaseCreateSchema,
      responses: { "201": { description: "The case", schema: v2CaseSchema }, ...errors },
      async handle(ctx) {
        const b = await ctx.body();
        const draft = { ...caseChangesFromBody(b), patientId: Number(b.patient_id) } as CoverageCaseDraft;
        const view = await practice.coverageCases.create(ctx.principal, draft);
        const body = await withWarnings(view);
        return jsonResponse(201, body, { location: `${ctx.basePath}/v2/cases/${body.id}` });
      },
    }),
    route({
      method: "GET",
      path: "/v2/cases/:service_case_id",
      ids: { service_case_id: CASE_ID },
      readsOnly: true,
      operationId: "v2GetCase",
      summary: "Read a case, with its visit counts and authorization status.",
      access: "read",
      responses: { "200": { description: "The case", schema: v2CaseSchema }, "404": errors["404"] },
      async handle(ctx) {
        return jsonResponse(200, await withWarnings(await practice.cases.get(ctx.principal, ctx.ids.service_case_id)));
      },
    }),
    route({
      method: "PATCH",
      path: "/v2/cases/:service_case_id",
      ids: { service_case_id: CASE_ID },
      operationId: "v2UpdateCase",
      summary:
        "Change a case: omitted fields keep their values, lists replace the whole list, null clears; primary_coverage_id and secondary_coverage_id point into the patient's coverages. Emits case.updated, or case.discharged.",
      access: "write",
      requestBody: v2CaseUpdateSchema,
      responses: { "200": { description: "The case after the change", schema: v2CaseSchema }, ...errors },
      async handle(ctx) {
        const changes = caseChangesFromBody(await ctx.body());
        const view = await practice.coverageCases.update(ctx.principal, ctx.ids.service_case_id, changes);
        return jsonResponse(200, await withWarnings(view));
      },
    }),
  ];
}
