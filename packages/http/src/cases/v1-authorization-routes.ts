import { requireServiceCaseId } from "@openpractice/core";
import { caseIdQuerySchema } from "../contracts/case-id.js";
import { pathIdKind, readPathId } from "../contracts/path-id.js";
import { V1_PAGINATION_SCHEMA, v1EnvelopeSchema, v1Pagination, v1Success } from "../contracts/v1-contract.js";
import { arrayOf, replyObject } from "../openapi/reply-schemas.js";
import type { JsonSchema } from "../validation/json-schema.js";
import { routeGroup } from "../define-route.js";
import type { RouteDefinition, RouteDependencies } from "../route.js";
import {
  V1_AUTHORIZATION_FIELDS,
  V1_PHYSICIAN_FIELDS,
  v1AuthorizationChangesFromBody,
  v1AuthorizationCreateSchema,
  v1AuthorizationDeletedSchema,
  v1AuthorizationDraftFromBody,
  v1AuthorizationSchema,
  v1AuthorizationUpdateSchema,
  v1AuthorizationView,
  v1PhysicianChangesFromBody,
  v1PhysicianDraftFromBody,
  v1PhysicianCreateSchema,
  v1PhysicianSchema,
  v1PhysicianUpdateSchema,
  v1PhysicianView,
} from "./v1-authorization-contract.js";
import { CASE_ID, CASE_SCOPES } from "./v1-case-routes.js";

const BASE = "/apis/soap-enrichment/v1";
const v1ErrorBody = { $ref: "#/components/schemas/V1Error" };
const page = (items: string, item: JsonSchema) =>
  v1EnvelopeSchema(replyObject({ [items]: arrayOf(item), pagination: V1_PAGINATION_SCHEMA }));
const physician = v1EnvelopeSchema(v1PhysicianSchema);
const authorization = v1EnvelopeSchema(v1AuthorizationSchema);
const pageQuery = {
  page: { type: "integer", minimum: 1, default: 1 },
  size: { type: "integer", minimum: 1, maximum: 100, default: 20 },
} as const;

const PHYSICIAN_ID = pathIdKind("REFERRING_PHYSICIAN_NOT_FOUND", "referring_physician_id");
const AUTHORIZATION_ID = pathIdKind("AUTHORIZATION_NOT_FOUND", "authorization_id");

/** The referring physician registry and the authorizations of cases. */
export function v1AuthorizationRoutes({ practice }: RouteDependencies): RouteDefinition[] {
  // Referring physicians and authorizations belong to cases: they take the cases' scopes.
  const physicianRoute = routeGroup({
    contract: "v1",
    tags: ["Referring physicians (v1)"],
    auth: true,
    scopes: CASE_SCOPES,
    fieldNames: V1_PHYSICIAN_FIELDS,
  });
  const authorizationRoute = routeGroup({
    contract: "v1",
    tags: ["Authorizations (v1)"],
    auth: true,
    scopes: CASE_SCOPES,
    fieldNames: V1_AUTHORIZATION_FIELDS,
  });
  const errors = {
    "400": { description: "VALIDATION_FAILED naming the field", schema: v1ErrorBody },
    "404": { description: "Not found in this organisation", schema: v1ErrorBody },
  };
  return [
    physicianRoute({
      method: "POST",
      path: `${BASE}/referringPhysician`,
      operationId: "v1CreateReferringPhysician",
      summary: "Add a referring physician; the NPI (10 digits, check digit verified) is unique in the organisation.",
      access: "write",
      requestBody: v1PhysicianCreateSchema,
      responses: {
        "200": { description: "The physician", schema: physician },
        "400": errors["400"],
        "409": { description: "DUPLICATE_REFERRING_PHYSICIAN", schema: v1ErrorBody },
      },
      async handle(ctx) {
        return v1Success(
          v1PhysicianView(
            await practice.referringPhysicians.create(ctx.principal, v1PhysicianDraftFromBody(await ctx.body())),
          ),
        );
      },
    }),
    physicianRoute({
      method: "GET",
      path: `${BASE}/referringPhysician/search`,
      operationId: "v1SearchReferringPhysicians",
      summary: "Search by name or NPI: every word of `q` must occur in the first name, last name or NPI.",
      access: "read",
      query: {
        type: "object",
        additionalProperties: false,
        properties: { q: { type: "string", maxLength: 100 }, ...pageQuery },
      },
      responses: {
        "200": { description: "A page of physicians", schema: page("referring_physicians", v1PhysicianSchema) },
      },
      async handle(ctx) {
        const q = ctx.query();
        const found = await practice.referringPhysicians.search(ctx.principal, { q: q.q, page: q.page, size: q.size });
        return v1Success({
          referring_physicians: found.physicians.map(v1PhysicianView),
          pagination: v1Pagination(found),
        });
      },
    }),
    physicianRoute({
      method: "GET",
      path: `${BASE}/referringPhysician/:id`,
      ids: { id: PHYSICIAN_ID },
      operationId: "v1GetReferringPhysician",
      summary: "Read a referring physician.",
      access: "read",
      responses: { "200": { description: "The physician", schema: physician }, "404": errors["404"] },
      async handle(ctx) {
        return v1Success(v1PhysicianView(await practice.referringPhysicians.get(ctx.principal, ctx.ids.id)));
      },
    }),
    physicianRoute({
      method: "POST",
      path: `${BASE}/referringPhysician/:id`,
      ids: { id: PHYSICIAN_ID },
      operationId: "v1UpdateReferringPhysician",
      summary: "Partial update of a referring physician (null clears an optional field).",
      access: "write",
      requestBody: v1PhysicianUpdateSchema,
      responses: {
        "200": { description: "The physician", schema: physician },
        ...errors,
        "409": { description: "DUPLICATE_REFERRING_PHYSICIAN", schema: v1ErrorBody },
      },
      async handle(ctx) {
        const id = ctx.ids.id;
        return v1Success(
          v1PhysicianView(
            await practice.referringPhysicians.update(ctx.principal, id, v1PhysicianChangesFromBody(await ctx.body())),
          ),
        );
      },
    }),
    authorizationRoute({
      method: "POST",
      path: `${BASE}/authorization`,
      operationId: "v1CreateAuthorization",
      summary: "Record a payer's authorization of visits on a case.",
      access: "write",
      requestBody: v1AuthorizationCreateSchema,
      responses: { "200": { description: "The authorization", schema: authorization }, ...errors },
      async handle(ctx) {
        return v1Success(
          v1AuthorizationView(
            await practice.authorizations.create(ctx.principal, v1AuthorizationDraftFromBody(await ctx.body())),
          ),
        );
      },
    }),
    authorizationRoute({
      method: "GET",
      path: `${BASE}/authorization`,
      operationId: "v1ListCaseAuthorizations",
      summary: "A case's authorizations by effective start date (`service_case_id` required).",
      access: "read",
      query: {
        type: "object",
        additionalProperties: false,
        required: ["service_case_id"],
        properties: { service_case_id: caseIdQuerySchema },
      },
      responses: {
        "200": { description: "Authorizations", schema: v1EnvelopeSchema(arrayOf(v1AuthorizationSchema)) },
        "404": errors["404"],
      },
      async handle(ctx) {
        return v1Success(
          (
            await practice.authorizations.listByCase(ctx.principal, readPathId(CASE_ID, ctx.query().service_case_id))
          ).map(v1AuthorizationView),
        );
      },
    }),
    authorizationRoute({
      method: "GET",
      path: `${BASE}/authorization/search`,
      operationId: "v1SearchAuthorizations",
      summary:
        "Search the organisation's authorizations by patient name (every word), reference number (substring) or case; newest first.",
      access: "read",
      query: {
        type: "object",
        additionalProperties: false,
        properties: {
          patient_name: { type: "string", maxLength: 100 },
          reference_number: { type: "string", maxLength: 100 },
          service_case_id: caseIdQuerySchema,
          ...pageQuery,
        },
      },
      responses: {
        "200": { description: "A page of authorizations", schema: page("authorizations", v1AuthorizationSchema) },
      },
      async handle(ctx) {
        const q = ctx.query();
        const found = await practice.authorizations.search(ctx.principal, {
          patientName: q.patient_name,
          referenceNumber: q.reference_number,
          caseId:
            q.service_case_id === undefined ? undefined : requireServiceCaseId(q.service_case_id, "service_case_id"),
          page: q.page,
          size: q.size,
        });
        return v1Success({
          authorizations: found.authorizations.map(v1AuthorizationView),
          pagination: v1Pagination(found),
        });
      },
    }),
    authorizationRoute({
      method: "GET",
      path: `${BASE}/authorization/:id`,
      ids: { id: AUTHORIZATION_ID },
      operationId: "v1GetAuthorization",
      summary: "Read an authorization with its visits counted (current, booked, remaining).",
      access: "read",
      responses: { "200": { description: "The authorization", schema: authorization }, "404": errors["404"] },
      async handle(ctx) {
        return v1Success(v1AuthorizationView(await practice.authorizations.get(ctx.principal, ctx.ids.id)));
      },
    }),
    authorizationRoute({
      method: "POST",
      path: `${BASE}/authorization/:id`,
      ids: { id: AUTHORIZATION_ID },
      operationId: "v1UpdateAuthorization",
      summary: "Partial update; icd_codes and cpt_code_authorization_details replace the whole list.",
      access: "write",
      requestBody: v1AuthorizationUpdateSchema,
      responses: { "200": { description: "The authorization", schema: authorization }, ...errors },
      async handle(ctx) {
        const id = ctx.ids.id;
        return v1Success(
          v1AuthorizationView(
            await practice.authorizations.update(ctx.principal, id, v1AuthorizationChangesFromBody(await ctx.body())),
          ),
        );
      },
    }),
    authorizationRoute({
      method: "DELETE",
      path: `${BASE}/authorization/:id`,
      ids: { id: AUTHORIZATION_ID },
      operationId: "v1DeleteAuthorization",
      summary: "Delete an authorization. Its visits stay on the case; later bookings need another authorization.",
      access: "write",
      responses: {
        "200": { description: "Deleted", schema: v1EnvelopeSchema(v1AuthorizationDeletedSchema) },
        "404": errors["404"],
      },
      async handle(ctx) {
        const id = ctx.ids.id;
        await practice.authorizations.delete(ctx.principal, id);
        return v1Success({ authorization_id: id, deleted: true });
      },
    }),
  ];
}
