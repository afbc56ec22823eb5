import type { CoverageDraft } from "@openpractice/core";
import { jsonResponse } from "../contracts/json-response.js";
import { pathIdKind } from "../contracts/path-id.js";
import { V2_META_SCHEMA, v2Meta } from "../contracts/v2-contract.js";
import { routeGroup, scopePair } from "../define-route.js";
import { arrayOf, replyObject } from "../openapi/reply-schemas.js";
import { PATIENT_ID } from "../patients/v1-patient-routes.js";
import type { RouteDefinition, RouteDependencies } from "../route.js";
import {
  coverageChangesFromBody,
  V2_COVERAGE_FIELDS,
  v2CoverageCreateSchema,
  v2CoverageSchema,
  v2CoverageUpdateSchema,
  v2CoverageView,
} from "./v2-coverage-contract.js";

const COVERAGE_ID = pathIdKind("COVERAGE_NOT_FOUND", "coverage_id");
const v2ErrorBody = { $ref: "#/components/schemas/V2Error" };

/** A patient's coverages (spec 4.7): full create, read, update, delete under /v2/patients/{patient_id}/coverages. */
export function v2CoverageRoutes({ practice }: RouteDependencies): RouteDefinition[] {
  const route = routeGroup({
    contract: "v2",
    tags: ["Coverages (v2 beta)"],
    auth: true,
    scopes: scopePair("coverages"),
    rateLimitBucket: "v2",
    fieldNames: V2_COVERAGE_FIELDS,
  });
  const one = { patient_id: PATIENT_ID, coverage_id: COVERAGE_ID };
  const notFound = { description: "PATIENT_NOT_FOUND or COVERAGE_NOT_FOUND", schema: v2ErrorBody };
  return [
    route({
      method: "POST",
      path: "/v2/patients/:patient_id/coverages",
      ids: { patient_id: PATIENT_ID },
      auditResource: "coverage",
      operationId: "v2CreateCoverage",
      summary:
        "Add a coverage: a payer of the registry, the member id, the patient's order (primary…), the subscriber.",
      access: "write",
      requestBody: v2CoverageCreateSchema,
      responses: { "201": { description: "The coverage", schema: v2CoverageSchema }, "404": notFound },
      async handle(ctx) {
        const draft = coverageChangesFromBody(await ctx.body()) as CoverageDraft;
        const coverage = await practice.coverages.create(ctx.principal, ctx.ids.patient_id, draft);
        return jsonResponse(201, v2CoverageView(coverage), {
          location: `${ctx.basePath}/v2/patients/${coverage.patientId}/coverages/${coverage.id}`,
        });
      },
    }),
    route({
      method: "GET",
      path: "/v2/patients/:patient_id/coverages",
      ids: { patient_id: PATIENT_ID },
      readsOnly: true,
      operationId: "v2ListCoverages",
      summary: "The patient's coverages (v1's insurance cards included), oldest first.",
      access: "read",
      responses: {
        "200": {
          description: "The coverages",
          schema: replyObject({ data: arrayOf(v2CoverageSchema), meta: V2_META_SCHEMA }),
        },
        "404": notFound,
      },
      async handle(ctx) {
        const coverages = await practice.coverages.list(ctx.principal, ctx.ids.patient_id);
        return jsonResponse(200, { data: coverages.map(v2CoverageView), meta: v2Meta(ctx) });
      },
    }),
    route({
      method: "GET",
      path: "/v2/patients/:patient_id/coverages/:coverage_id",
      ids: one,
      readsOnly: true,
      operationId: "v2GetCoverage",
      summary: "Read a coverage.",
      access: "read",
      responses: { "200": { description: "The coverage", schema: v2CoverageSchema }, "404": notFound },
      async handle(ctx) {
        return jsonResponse(
          200,
          v2CoverageView(await practice.coverages.get(ctx.principal, ctx.ids.patient_id, ctx.ids.coverage_id)),
        );
      },
    }),
    route({
      method: "PATCH",
      path: "/v2/patients/:patient_id/coverages/:coverage_id",
      ids: one,
      operationId: "v2UpdateCoverage",
      summary: "Change a coverage: omitted fields keep their values; null clears an optional one.",
      access: "write",
      requestBody: v2CoverageUpdateSchema,
      responses: { "200": { description: "The coverage after the change", schema: v2CoverageSchema }, "404": notFound },
      async handle(ctx) {
        const changes = coverageChangesFromBody(await ctx.body());
        const coverage = await practice.coverages.update(
          ctx.principal,
          ctx.ids.patient_id,
          ctx.ids.coverage_id,
          changes,
        );
        return jsonResponse(200, v2CoverageView(coverage));
      },
    }),
    route({
      method: "DELETE",
      path: "/v2/patients/:patient_id/coverages/:coverage_id",
      ids: one,
      operationId: "v2DeleteCoverage",
      summary:
        "Delete a coverage no open case uses (409 COVERAGE_IN_USE names the cases; a discharged case does not count). 204.",
      access: "write",
      responses: {
        "204": { description: "Deleted" },
        "404": notFound,
        "409": { description: "COVERAGE_IN_USE: details.service_case_ids", schema: v2ErrorBody },
      },
      async handle(ctx) {
        await practice.coverages.remove(ctx.principal, ctx.ids.patient_id, ctx.ids.coverage_id);
        return new Response(null, { status: 204 });
      },
    }),
  ];
}
