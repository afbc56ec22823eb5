import type { AuthorizationDraft } from "@openpractice/core";
import { jsonResponse } from "../contracts/json-response.js";
import { pathIdKind } from "../contracts/path-id.js";
import { V2_META_SCHEMA, v2Meta } from "../contracts/v2-contract.js";
import { routeGroup } from "../define-route.js";
import { arrayOf, replyObject } from "../openapi/reply-schemas.js";
import type { RouteDefinition, RouteDependencies } from "../route.js";
import { CASE_ID, CASE_SCOPES } from "./v1-case-routes.js";
import {
  authorizationChangesFromBody,
  V2_AUTHORIZATION_FIELDS,
  v2AuthorizationCreateSchema,
  v2AuthorizationSchema,
  v2AuthorizationUpdateSchema,
  v2AuthorizationView,
} from "./v2-authorization-contract.js";

const COVERAGE_ID = pathIdKind("COVERAGE_NOT_FOUND", "coverage_id");
const AUTHORIZATION_ID = pathIdKind("AUTHORIZATION_NOT_FOUND", "authorization_id");
const v2ErrorBody = { $ref: "#/components/schemas/V2Error" };
const list = replyObject({ data: arrayOf(v2AuthorizationSchema), meta: V2_META_SCHEMA });

/**
 * Authorizations on v2 (spec 4.7): the authorizations and visit counting of v1, granted under one of the case's
 * patient's coverages. Writes lock the case as a booking does, so counting stays race-safe.
 */
export function v2AuthorizationRoutes({ practice }: RouteDependencies): RouteDefinition[] {
  const route = routeGroup({
    contract: "v2",
    tags: ["Authorizations (v2 beta)"],
    auth: true,
    scopes: CASE_SCOPES,
    rateLimitBucket: "v2",
    fieldNames: V2_AUTHORIZATION_FIELDS,
  });
  const base = "/v2/cases/:service_case_id/coverages/:coverage_id/authorizations";
  const under = { service_case_id: CASE_ID, coverage_id: COVERAGE_ID };
  const one = { ...under, authorization_id: AUTHORIZATION_ID };
  const notFound = {
    description: "CASE_NOT_FOUND, COVERAGE_NOT_FOUND (not the case's patient's) or AUTHORIZATION_NOT_FOUND",
    schema: v2ErrorBody,
  };
  const invalid = { description: "VALIDATION_FAILED naming the field", schema: v2ErrorBody };
  const codes = async (sent: readonly string[] | undefined) =>
    sent === undefined ? undefined : practice.coverageCases.icdCodes("icdCodes", sent);
  return [
    route({
      method: "POST",
      path: base,
      ids: under,
      auditResource: "authorization",
      operationId: "v2CreateAuthorization",
      summary:
        "Add a payer's authorization of visits under a coverage of the case's patient; the payer and plan dates default to the coverage's. Emits authorization.created.",
      access: "write",
      requestBody: v2AuthorizationCreateSchema,
      responses: {
        "201": { description: "The authorization", schema: v2AuthorizationSchema },
        "400": invalid,
        "404": notFound,
      },
      async handle(ctx) {
        const b = await ctx.body();
        const draft = {
          ...authorizationChangesFromBody(b),
          icdCodes: await codes(b.icd_codes),
          caseId: ctx.ids.service_case_id,
          coverageId: ctx.ids.coverage_id,
        } as AuthorizationDraft;
        const body = v2AuthorizationView(await practice.authorizations.create(ctx.principal, draft));
        return jsonResponse(201, body, {
          location: `${ctx.basePath}/v2/cases/${body.service_case_id}/coverages/${body.coverage_id}/authorizations/${body.id}`,
        });
      },
    }),
    route({
      method: "GET",
      path: base,
      ids: under,
      readsOnly: true,
      operationId: "v2ListCoverageAuthorizations",
      summary: "The case's authorizations granted under this coverage, by effective start date.",
      access: "read",
      responses: { "200": { description: "The authorizations", schema: list }, "404": notFound },
      async handle(ctx) {
        const views = await practice.authorizations.listByCoverage(
          ctx.principal,
          ctx.ids.service_case_id,
          ctx.ids.coverage_id,
        );
        return jsonResponse(200, { data: views.map(v2AuthorizationView), meta: v2Meta(ctx) });
      },
    }),
    route({
      method: "GET",
      path: "/v2/cases/:service_case_id/authorizations",
      ids: { service_case_id: CASE_ID },
      readsOnly: true,
      operationId: "v2ListCaseAuthorizations",
      summary: "Every authorization of the case (v1's included, coverage_id null), by effective start date.",
      access: "read",
      responses: { "200": { description: "The authorizations", schema: list }, "404": notFound },
      async handle(ctx) {
        const views = await practice.authorizations.listByCase(ctx.principal, ctx.ids.service_case_id);
        return jsonResponse(200, { data: views.map(v2AuthorizationView), meta: v2Meta(ctx) });
      },
    }),
    route({
      method: "GET",
      path: `${base}/:authorization_id`,
      ids: one,
      readsOnly: true,
      operationId: "v2GetAuthorization",
      summary: "Read an authorization with its visits used, booked and remaining.",
      access: "read",
      responses: { "200": { description: "The authorization", schema: v2AuthorizationSchema }, "404": notFound },
      async handle(ctx) {
        const { service_case_id: caseId, coverage_id: coverageId, authorization_id } = ctx.ids;
        const view = await practice.authorizations.getUnder(ctx.principal, { caseId, coverageId }, authorization_id);
        return jsonResponse(200, v2AuthorizationView(view));
      },
    }),
    route({
      method: "PATCH",
      path: `${base}/:authorization_id`,
      ids: one,
      operationId: "v2UpdateAuthorization",
      summary:
        "Change an authorization: omitted fields keep their values, lists replace the whole list. Emits authorization.updated.",
      access: "write",
      requestBody: v2AuthorizationUpdateSchema,
      responses: {
        "200": { description: "The authorization after the change", schema: v2AuthorizationSchema },
        "400": invalid,
        "404": notFound,
      },
      async handle(ctx) {
        const { service_case_id: caseId, coverage_id: coverageId, authorization_id } = ctx.ids;
        // The body first: a request that cannot be read is 400 whatever the path names.
        const b = await ctx.body();
        const changes = {
          ...authorizationChangesFromBody(b),
          ...(b.icd_codes === undefined ? {} : { icdCodes: await codes(b.icd_codes) }),
        };
        const view = await practice.authorizations.update(ctx.principal, authorization_id, changes, {
          caseId,
          coverageId,
        });
        return jsonResponse(200, v2AuthorizationView(view));
      },
    }),
    route({
      method: "DELETE",
      path: `${base}/:authorization_id`,
      ids: one,
      operationId: "v2DeleteAuthorization",
      summary: "Delete an authorization. Emits authorization.deleted. 204.",
      access: "write",
      responses: { "204": { description: "Deleted" }, "404": notFound },
      async handle(ctx) {
        const { service_case_id: caseId, coverage_id: coverageId, authorization_id } = ctx.ids;
        await practice.authorizations.delete(ctx.principal, authorization_id, { caseId, coverageId });
        return new Response(null, { status: 204 });
      },
    }),
  ];
}
