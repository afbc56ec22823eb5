import type { EligibilityServiceType } from "@openpractice/core";
import { jsonResponse } from "../contracts/json-response.js";
import { optionalBody } from "../contracts/optional-body.js";
import { pathIdKind } from "../contracts/path-id.js";
import { V1_PAGINATION_SCHEMA, v1EnvelopeSchema, v1Pagination, v1Success } from "../contracts/v1-contract.js";
import { routeGroup, scopePair } from "../define-route.js";
import { arrayOf, id as numericId, idText, replyObject } from "../openapi/reply-schemas.js";
import { PATIENT_ID } from "../patients/v1-patient-routes.js";
import { zonelessUtc } from "../patients/v1-patient-contract.js";
import type { RouteDefinition, RouteDependencies } from "../route.js";
import {
  ELIGIBILITY_FIELDS,
  eligibilityCheckSchema,
  eligibilityCheckView,
  manualEligibilityFromBody,
  v1ManualEligibilitySchema,
  v2EligibilityCheckSchema,
} from "./eligibility-contract.js";

const COVERAGE_ID = pathIdKind("COVERAGE_NOT_FOUND", "coverage_id");
const SCOPES = scopePair("eligibility");
const v2View = { id: String, time: (d: Date) => d.toISOString(), withRaw: false };
const v1View = { id: (n: number) => n, time: zonelessUtc, withRaw: true };

/**
 * Eligibility (spec 4.7 and 9): the real-time check on v2; a coverage's history and results recorded by hand on v1,
 * where v1's insurance cards are v2's coverages.
 */
export function eligibilityRoutes({ practice }: RouteDependencies): RouteDefinition[] {
  const v2 = routeGroup({
    contract: "v2",
    tags: ["Eligibility (v2 beta)"],
    auth: true,
    scopes: SCOPES,
    rateLimitBucket: "v2",
    fieldNames: ELIGIBILITY_FIELDS,
  });
  const v1 = routeGroup({
    contract: "v1",
    tags: ["Eligibility (v1)"],
    auth: true,
    scopes: SCOPES,
    fieldNames: ELIGIBILITY_FIELDS,
  });
  const ids = { patient_id: PATIENT_ID, coverage_id: COVERAGE_ID };
  const v2Error = { $ref: "#/components/schemas/V2Error" };
  const v1Error = { $ref: "#/components/schemas/V1Error" };
  const v1Path = "/apis/v1/patient/:patient_id/insurance-cards/:coverage_id/eligibility-checks";
  return [
    v2({
      method: "POST",
      path: "/v2/patients/:patient_id/coverages/:coverage_id/eligibility-checks",
      ids,
      auditResource: "eligibility_check",
      operationId: "v2CheckEligibility",
      summary:
        "Ask the payer now (X12 270/271 through the organisation's clearinghouse): active or not, plan dates, and per service type the copay, coinsurance, deductible, out-of-pocket, visits and prior authorization. Every check is kept, with the documents.",
      access: "write",
      requestBody: v2EligibilityCheckSchema,
      responses: {
        "201": { description: "The payer's answer", schema: eligibilityCheckSchema(idText, false) },
        "400": { description: "VALIDATION_FAILED (a coverage without a payer id)", schema: v2Error },
        "404": { description: "PATIENT_NOT_FOUND or COVERAGE_NOT_FOUND", schema: v2Error },
        "409": { description: "ELIGIBILITY_NOT_CONFIGURED", schema: v2Error },
        "422": {
          description: "ELIGIBILITY_REJECTED: details.rejections (AAA code, reason, follow_up) and details.check_id",
          schema: v2Error,
        },
        "502": {
          description: "ELIGIBILITY_UNAVAILABLE or ELIGIBILITY_INVALID_RESPONSE (details.check_id)",
          schema: v2Error,
        },
        "504": { description: "ELIGIBILITY_TIMEOUT (details.check_id)", schema: v2Error },
      },
      async handle(ctx) {
        const b = await optionalBody(ctx);
        const check = await practice.eligibility.check(ctx.principal, ctx.ids.patient_id, ctx.ids.coverage_id, {
          serviceDate: b.service_date,
          serviceTypes: b.service_types as EligibilityServiceType[] | undefined,
        });
        return jsonResponse(201, eligibilityCheckView(check, v2View));
      },
    }),
    v1({
      method: "GET",
      path: v1Path,
      ids,
      operationId: "v1ListEligibilityChecks",
      summary:
        "A coverage's (insurance card's) eligibility checks, newest first, real-time and manual, with the X12 documents.",
      access: "read",
      query: {
        type: "object",
        additionalProperties: false,
        properties: {
          page: { type: "integer", minimum: 1, default: 1 },
          size: { type: "integer", minimum: 1, maximum: 100, default: 20 },
        },
      },
      responses: {
        "200": {
          description: "Checks",
          schema: v1EnvelopeSchema(
            replyObject({ checks: arrayOf(eligibilityCheckSchema(numericId, true)), pagination: V1_PAGINATION_SCHEMA }),
          ),
        },
        "404": { description: "PATIENT_NOT_FOUND or COVERAGE_NOT_FOUND", schema: v1Error },
      },
      async handle(ctx) {
        const found = await practice.eligibility.history(
          ctx.principal,
          ctx.ids.patient_id,
          ctx.ids.coverage_id,
          ctx.query(),
        );
        return v1Success({
          checks: found.checks.map((c) => eligibilityCheckView(c, v1View)),
          pagination: v1Pagination(found),
        });
      },
    }),
    v1({
      method: "POST",
      path: v1Path,
      ids,
      auditResource: "eligibility_check",
      operationId: "v1RecordEligibility",
      summary: "Record a result taken by phone or from a payer portal (source manual); it counts as the newest answer.",
      access: "write",
      requestBody: v1ManualEligibilitySchema,
      responses: {
        "200": { description: "The recorded check", schema: v1EnvelopeSchema(eligibilityCheckSchema(numericId, true)) },
        "400": { description: "VALIDATION_FAILED naming the field", schema: v1Error },
        "404": { description: "PATIENT_NOT_FOUND or COVERAGE_NOT_FOUND", schema: v1Error },
      },
      async handle(ctx) {
        const sent = manualEligibilityFromBody(await ctx.body());
        const check = await practice.eligibility.recordManual(
          ctx.principal,
          ctx.ids.patient_id,
          ctx.ids.coverage_id,
          sent,
        );
        return v1Success(eligibilityCheckView(check, v1View));
      },
    }),
  ];
}
