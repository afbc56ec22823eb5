import { DomainError, requireServiceCaseId } from "@openpractice/core";
import { caseIdQuerySchema } from "../contracts/case-id.js";
import { positivePathId } from "../contracts/path-id.js";
import { v1EnvelopeSchema, v1Pagination, v1Success } from "../contracts/v1-contract.js";
import type { RouteDefinition, RouteDependencies } from "../route.js";
import {
  V1_AUTHORIZATION_FIELDS,
  V1_PHYSICIAN_FIELDS,
  v1AuthorizationChangesFromBody,
  v1AuthorizationCreateSchema,
  v1AuthorizationDraftFromBody,
  v1AuthorizationUpdateSchema,
  v1AuthorizationView,
  v1PhysicianChangesFromBody,
  v1PhysicianCreateSchema,
  v1PhysicianUpdateSchema,
  v1PhysicianView,
} from "./v1-authorization-contract.js";
import { CASE_READ_SCOPES, CASE_WRITE_SCOPES, parseCasePathId } from "./v1-case-routes.js";

const BASE = "/apis/soap-enrichment/v1";
const v1ErrorBody = { $ref: "#/components/schemas/V1Error" };
const one = v1EnvelopeSchema({ type: "object" });
const page = (items: string) =>
  v1EnvelopeSchema({ type: "object", properties: { [items]: { type: "array" }, pagination: { type: "object" } } });
const pageQuery = {
  page: { type: "integer", minimum: 1, default: 1 },
  size: { type: "integer", minimum: 1, maximum: 100, default: 20 },
};

function pathId(raw: string | undefined, code: "AUTHORIZATION_NOT_FOUND" | "REFERRING_PHYSICIAN_NOT_FOUND"): number {
  const id = positivePathId(raw);
  if (id === undefined)
    throw new DomainError(
      code,
      code === "AUTHORIZATION_NOT_FOUND" ? "Authorization not found" : "Referring physician not found",
      { id: raw ?? null },
    );
  return id;
}

/** The referring physician registry and the authorizations of cases. */
export function v1AuthorizationRoutes({ practice }: RouteDependencies): RouteDefinition[] {
  const physicians = {
    contract: "v1" as const,
    tags: ["Referring physicians (v1)"],
    auth: true,
    fieldNames: V1_PHYSICIAN_FIELDS,
  };
  const auths = {
    contract: "v1" as const,
    tags: ["Authorizations (v1)"],
    auth: true,
    fieldNames: V1_AUTHORIZATION_FIELDS,
  };
  const errors = {
    "400": { description: "VALIDATION_FAILED naming the field", schema: v1ErrorBody },
    "404": { description: "Not found in this organisation", schema: v1ErrorBody },
  };
  return [
    {
      ...physicians,
      method: "POST",
      path: `${BASE}/referringPhysician`,
      operationId: "v1CreateReferringPhysician",
      summary: "Add a referring physician; the NPI (10 digits, check digit verified) is unique in the organisation.",
      scopes: CASE_WRITE_SCOPES,
      requestBody: v1PhysicianCreateSchema,
      responses: {
        "200": { description: "The physician", schema: one },
        "400": errors["400"],
        "409": { description: "DUPLICATE_REFERRING_PHYSICIAN", schema: v1ErrorBody },
      },
      async handle(ctx) {
        return v1Success(
          v1PhysicianView(
            await practice.referringPhysicians.create(
              ctx.principal,
              v1PhysicianChangesFromBody(await ctx.body()) as never,
            ),
          ),
        );
      },
    },
    {
      ...physicians,
      method: "GET",
      path: `${BASE}/referringPhysician/search`,
      operationId: "v1SearchReferringPhysicians",
      summary: "Search by name or NPI: every word of `q` must occur in the first name, last name or NPI.",
      scopes: CASE_READ_SCOPES,
      query: {
        type: "object",
        additionalProperties: false,
        properties: { q: { type: "string", maxLength: 100 }, ...pageQuery },
      },
      responses: { "200": { description: "A page of physicians", schema: page("referring_physicians") } },
      async handle(ctx) {
        const q = ctx.query();
        const found = await practice.referringPhysicians.search(ctx.principal, { q: q.q, page: q.page, size: q.size });
        return v1Success({
          referring_physicians: found.physicians.map(v1PhysicianView),
          pagination: v1Pagination(found),
        });
      },
    },
    {
      ...physicians,
      method: "GET",
      path: `${BASE}/referringPhysician/:id`,
      operationId: "v1GetReferringPhysician",
      summary: "Read a referring physician.",
      scopes: CASE_READ_SCOPES,
      responses: { "200": { description: "The physician", schema: one }, "404": errors["404"] },
      async handle(ctx) {
        return v1Success(
          v1PhysicianView(
            await practice.referringPhysicians.get(
              ctx.principal,
              pathId(ctx.params.id, "REFERRING_PHYSICIAN_NOT_FOUND"),
            ),
          ),
        );
      },
    },
    {
      ...physicians,
      method: "POST",
      path: `${BASE}/referringPhysician/:id`,
      operationId: "v1UpdateReferringPhysician",
      summary: "Partial update of a referring physician (null clears an optional field).",
      scopes: CASE_WRITE_SCOPES,
      requestBody: v1PhysicianUpdateSchema,
      responses: {
        "200": { description: "The physician", schema: one },
        ...errors,
        "409": { description: "DUPLICATE_REFERRING_PHYSICIAN", schema: v1ErrorBody },
      },
      async handle(ctx) {
        const id = pathId(ctx.params.id, "REFERRING_PHYSICIAN_NOT_FOUND");
        return v1Success(
          v1PhysicianView(
            await practice.referringPhysicians.update(ctx.principal, id, v1PhysicianChangesFromBody(await ctx.body())),
          ),
        );
      },
    },
    {
      ...auths,
      method: "POST",
      path: `${BASE}/authorization`,
      operationId: "v1CreateAuthorization",
      summary: "Record a payer's authorization of visits on a case.",
      scopes: CASE_WRITE_SCOPES,
      requestBody: v1AuthorizationCreateSchema,
      responses: { "200": { description: "The authorization", schema: one }, ...errors },
      async handle(ctx) {
        return v1Success(
          v1AuthorizationView(
            await practice.authorizations.create(ctx.principal, v1AuthorizationDraftFromBody(await ctx.body())),
          ),
        );
      },
    },
    {
      ...auths,
      method: "GET",
      path: `${BASE}/authorization`,
      operationId: "v1ListCaseAuthorizations",
      summary: "A case's authorizations by effective start date (`service_case_id` required).",
      scopes: CASE_READ_SCOPES,
      query: {
        type: "object",
        additionalProperties: false,
        required: ["service_case_id"],
        properties: { service_case_id: caseIdQuerySchema },
      },
      responses: {
        "200": { description: "Authorizations", schema: v1EnvelopeSchema({ type: "array" }) },
        "404": errors["404"],
      },
      async handle(ctx) {
        return v1Success(
          (await practice.authorizations.listByCase(ctx.principal, parseCasePathId(ctx.query().service_case_id))).map(
            v1AuthorizationView,
          ),
        );
      },
    },
    {
      ...auths,
      method: "GET",
      path: `${BASE}/authorization/search`,
      operationId: "v1SearchAuthorizations",
      summary:
        "Search the organisation's authorizations by patient name (every word), reference number (substring) or case; newest first.",
      scopes: CASE_READ_SCOPES,
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
      responses: { "200": { description: "A page of authorizations", schema: page("authorizations") } },
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
    },
    {
      ...auths,
      method: "GET",
      path: `${BASE}/authorization/:id`,
      operationId: "v1GetAuthorization",
      summary: "Read an authorization with its visits counted (current, booked, remaining).",
      scopes: CASE_READ_SCOPES,
      responses: { "200": { description: "The authorization", schema: one }, "404": errors["404"] },
      async handle(ctx) {
        return v1Success(
          v1AuthorizationView(
            await practice.authorizations.get(ctx.principal, pathId(ctx.params.id, "AUTHORIZATION_NOT_FOUND")),
          ),
        );
      },
    },
    {
      ...auths,
      method: "POST",
      path: `${BASE}/authorization/:id`,
      operationId: "v1UpdateAuthorization",
      summary: "Partial update; icd_codes and cpt_code_authorization_details replace the whole list.",
      scopes: CASE_WRITE_SCOPES,
      requestBody: v1AuthorizationUpdateSchema,
      responses: { "200": { description: "The authorization", schema: one }, ...errors },
      async handle(ctx) {
        const id = pathId(ctx.params.id, "AUTHORIZATION_NOT_FOUND");
        return v1Success(
          v1AuthorizationView(
            await practice.authorizations.update(ctx.principal, id, v1AuthorizationChangesFromBody(await ctx.body())),
          ),
        );
      },
    },
    {
      ...auths,
      method: "DELETE",
      path: `${BASE}/authorization/:id`,
      operationId: "v1DeleteAuthorization",
      summary: "Delete an authorization. Its visits stay on the case; later bookings need another authorization.",
      scopes: CASE_WRITE_SCOPES,
      responses: {
        "200": { description: "Deleted", schema: v1EnvelopeSchema({ type: "object" }) },
        "404": errors["404"],
      },
      async handle(ctx) {
        const id = pathId(ctx.params.id, "AUTHORIZATION_NOT_FOUND");
        await practice.authorizations.delete(ctx.principal, id);
        return v1Success({ authorization_id: id, deleted: true });
      },
    },
  ];
}
