import { ORGANISATION_LIMITS, PLANS, type Organisation, type Principal } from "@openpractice/core";
import type { FieldNames } from "../contracts/field-names.js";
import { jsonResponse } from "../contracts/json-response.js";
import { pathIdKind } from "../contracts/path-id.js";
import { v2ListBody, v2ListSchema, v2PageParameters } from "../contracts/v2-contract.js";
import { routeGroup } from "../define-route.js";
import type { RouteDefinition, RouteDependencies } from "../route.js";
import {
  boolean,
  dateTime,
  dateTimeOrNull,
  described,
  idText,
  oneOfStrings,
  replyObject,
  plainText,
} from "../openapi/reply-schemas.js";
import { apiClientWithSecretSchema, v2ApiClientView } from "./v2-api-client-routes.js";

const ORGANISATION_ID = pathIdKind("ORGANISATION_NOT_FOUND", "organisation_id");
const PLATFORM = ["platform:admin"] as const;
const timeZone = {
  type: "string",
  minLength: 1,
  maxLength: 64,
  description: "IANA time zone, e.g. America/Chicago",
} as const;

const createSchema = {
  $id: "V2OrganisationCreate",
  type: "object",
  additionalProperties: false,
  required: ["name"],
  properties: {
    name: { type: "string", minLength: 1, maxLength: ORGANISATION_LIMITS.nameMax },
    plan: { type: "string", enum: [...PLANS], default: "free" },
    time_zone: { ...timeZone, default: "UTC" },
    admin_client_name: {
      type: "string",
      minLength: 1,
      maxLength: 100,
      default: "Administrator",
      description: "Name of the first API client (scope admin read write), answered with its secret",
    },
  },
} as const;

const updateSchema = {
  $id: "V2OrganisationUpdate",
  type: "object",
  additionalProperties: false,
  minProperties: 1,
  properties: {
    name: { type: "string", minLength: 1, maxLength: ORGANISATION_LIMITS.nameMax },
    plan: { type: "string", enum: [...PLANS] },
    time_zone: timeZone,
    active: { type: "boolean", description: "false deactivates: every token of the organisation is refused" },
    audit_reads: { type: "boolean", description: "Record reads of patient records in the audit trail" },
  },
} as const;

const listQuery = {
  type: "object",
  additionalProperties: false,
  properties: {
    ...v2PageParameters(ORGANISATION_LIMITS.defaultPerPage, ORGANISATION_LIMITS.maxPerPage),
    status: { type: "string", enum: ["active", "deactivated", "all"], default: "all" },
  },
} as const;

const ORGANISATION_PROPERTIES = {
  id: idText,
  name: plainText,
  plan: oneOfStrings(PLANS),
  time_zone: described(plainText, "IANA time zone"),
  active: described(boolean, "false once the platform operator deactivated it"),
  deactivated_at: dateTimeOrNull,
  audit_reads: described(boolean, "Reads of patient records are recorded in the audit trail"),
  webhooks_active: described(boolean, "The webhook profile's is_active (spec 4.8)"),
  created_at: dateTime,
  updated_at: dateTime,
} as const;
/** An organisation (v2OrganisationView). */
const organisationSchema = replyObject(ORGANISATION_PROPERTIES, { title: "Organisation" });

const FIELDS: FieldNames = Object.freeze({
  name: "name",
  plan: "plan",
  timeZone: "time_zone",
  active: "active",
  auditReads: "audit_reads",
});

export const v2OrganisationView = (o: Organisation) => ({
  id: String(o.id),
  name: o.name,
  plan: o.plan,
  time_zone: o.timeZone,
  active: o.deactivatedAt === null,
  deactivated_at: o.deactivatedAt?.toISOString() ?? null,
  audit_reads: o.auditReads,
  webhooks_active: o.isActive,
  created_at: o.createdAt.toISOString(),
  updated_at: o.updatedAt.toISOString(),
});

/** The first client of a new organisation: it sets everything else up. */
export const FIRST_CLIENT_SCOPES = ["admin", "read", "write"] as const;

/** Platform writes are audited in the organisation they change (a platform principal belongs to none). */
const platformEntry = (principal: Principal, action: string, id: number, requestId: string, fields: object) => ({
  actorUserId: principal.userId,
  actorName: principal.name,
  clientId: principal.clientId ?? null,
  action,
  resourceType: "organisation",
  resourceId: String(id),
  requestId,
  changedFields: Object.keys(fields).sort(),
});

/** GET /v2/organisation for an organisation's tokens; /v2/organisations for the platform operator (platform:admin). */
export function v2OrganisationRoutes({ practice }: RouteDependencies): RouteDefinition[] {
  const own = routeGroup({ contract: "v2", tags: ["Organisation (v2 beta)"], auth: true, rateLimitBucket: "v2" });
  const platform = routeGroup({
    contract: "v2",
    tags: ["Platform (v2 beta)"],
    auth: true,
    platform: true,
    fieldNames: FIELDS,
  });
  const ids = { organisation_id: ORGANISATION_ID };
  return [
    own({
      method: "GET",
      path: "/v2/organisation",
      readsOnly: true,
      operationId: "v2GetOwnOrganisation",
      summary: "The token's organisation: name, plan, time zone, whether reads are audited.",
      scopes: ["organisation:read", "read", "admin"],
      responses: {
        "200": { description: "The organisation", schema: organisationSchema },
        "404": {
          description: "ORGANISATION_NOT_FOUND: no record yet (created by `org create` or the first write)",
          schema: { $ref: "#/components/schemas/V2Error" },
        },
      },
      async handle(ctx) {
        return jsonResponse(
          200,
          v2OrganisationView(await practice.organisationAdmin.get(ctx.principal.organisationId)),
        );
      },
    }),
    platform({
      method: "POST",
      path: "/v2/organisations",
      operationId: "v2CreateOrganisation",
      summary:
        "Create an organisation and its first API client (scopes admin read write); the client_secret is shown once.",
      scopes: PLATFORM,
      requestBody: createSchema,
      responses: {
        "201": {
          description: "The organisation and admin_client (with client_secret)",
          schema: replyObject(
            { ...ORGANISATION_PROPERTIES, admin_client: apiClientWithSecretSchema },
            { title: "OrganisationWithAdminClient" },
          ),
        },
      },
      async handle(ctx) {
        const b = await ctx.body();
        const org = await practice.organisationAdmin.create({ name: b.name, plan: b.plan, timeZone: b.time_zone });
        const { client, secret } = await practice.apiClients.createForOrganisation(org.id, {
          name: b.admin_client_name ?? "Administrator",
          scopes: FIRST_CLIENT_SCOPES,
        });
        await practice.audit.record(
          org.id,
          platformEntry(ctx.principal, "v2CreateOrganisation", org.id, ctx.requestId, b),
        );
        return jsonResponse(
          201,
          { ...v2OrganisationView(org), admin_client: { ...v2ApiClientView(client), client_secret: secret } },
          { location: `${ctx.basePath}/v2/organisations/${org.id}`, "cache-control": "no-store" },
        );
      },
    }),
    platform({
      method: "GET",
      path: "/v2/organisations",
      operationId: "v2ListOrganisations",
      summary: "List organisations by id; status narrows to active or deactivated ones.",
      scopes: PLATFORM,
      query: listQuery,
      responses: { "200": { description: "A page of organisations", schema: v2ListSchema(organisationSchema) } },
      async handle(ctx) {
        const q = ctx.query();
        const page = await practice.organisationAdmin.list({ page: q.page, perPage: q.per_page, status: q.status });
        return jsonResponse(200, v2ListBody(ctx, page, page.organisations.map(v2OrganisationView), undefined));
      },
    }),
    platform({
      method: "GET",
      path: "/v2/organisations/:organisation_id",
      ids,
      operationId: "v2GetOrganisation",
      summary: "Read an organisation.",
      scopes: PLATFORM,
      responses: { "200": { description: "The organisation", schema: organisationSchema } },
      async handle(ctx) {
        return jsonResponse(200, v2OrganisationView(await practice.organisationAdmin.get(ctx.ids.organisation_id)));
      },
    }),
    platform({
      method: "PATCH",
      path: "/v2/organisations/:organisation_id",
      ids,
      operationId: "v2UpdateOrganisation",
      summary:
        "Change name, plan, time zone or read auditing; active false deactivates (its tokens are refused), true reactivates.",
      scopes: PLATFORM,
      requestBody: updateSchema,
      responses: { "200": { description: "The organisation", schema: organisationSchema } },
      async handle(ctx) {
        const b = await ctx.body();
        const id = ctx.ids.organisation_id;
        const org = await practice.organisationAdmin.update(id, {
          name: b.name,
          plan: b.plan,
          timeZone: b.time_zone,
          active: b.active,
          auditReads: b.audit_reads,
        });
        practice.organisationAccess.forget(id);
        await practice.audit.record(id, platformEntry(ctx.principal, "v2UpdateOrganisation", id, ctx.requestId, b));
        return jsonResponse(200, v2OrganisationView(org));
      },
    }),
  ];
}
