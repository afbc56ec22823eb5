import type { ReferringPhysician } from "@openpractice/core";
import { pathIdKind } from "../contracts/path-id.js";
import { v2PageParameters } from "../contracts/v2-contract.js";
import { routeGroup, scopePair } from "../define-route.js";
import { dateTime, idText, plainText, replyObject, textOrNull } from "../openapi/reply-schemas.js";
import { resourceRoutes } from "../resource-routes.js";
import type { RouteDefinition, RouteDependencies } from "../route.js";
import { nullable } from "../validation/json-schema.js";
import {
  physicianWireFields,
  V1_PHYSICIAN_FIELDS,
  v1PhysicianChangesFromBody,
  v1PhysicianDraftFromBody,
} from "./v1-authorization-contract.js";

const PHYSICIAN_ID = pathIdKind("REFERRING_PHYSICIAN_NOT_FOUND", "referring_physician_id");
const text = (max: number) => nullable({ type: "string", minLength: 1, maxLength: max });

const properties = {
  first_name: { type: "string", minLength: 1, maxLength: 100 },
  last_name: { type: "string", minLength: 1, maxLength: 100 },
  npi: nullable({ type: "string", pattern: "^[0-9]{10}$", description: "10 digits with a valid check digit" }),
  phone_number: text(30),
  fax_number: text(30),
  address1: text(200),
  address2: text(200),
  city: text(200),
  state: nullable({ type: "string", pattern: "^[A-Z]{2}$", description: "2-letter state code" }),
  zip: nullable({ type: "string", pattern: "^[0-9]{5}(-[0-9]{4})?$" }),
} as const;

const createSchema = {
  $id: "V2ReferringPhysicianCreate",
  type: "object",
  additionalProperties: false,
  required: ["first_name", "last_name"],
  properties,
} as const;

const updateSchema = {
  $id: "V2ReferringPhysicianUpdate",
  type: "object",
  additionalProperties: false,
  minProperties: 1,
  properties,
} as const;

const listQuery = {
  type: "object",
  additionalProperties: false,
  properties: {
    ...v2PageParameters(25, 100),
    query: {
      type: "string",
      maxLength: 200,
      description: "Words that must all occur in the name or NPI (case- and accent-insensitive)",
    },
  },
} as const;

const physicianSchema = replyObject(
  {
    id: idText,
    first_name: plainText,
    last_name: plainText,
    npi: textOrNull,
    phone_number: textOrNull,
    fax_number: textOrNull,
    address1: textOrNull,
    address2: textOrNull,
    city: textOrNull,
    state: textOrNull,
    zip: textOrNull,
    created_at: dateTime,
    updated_at: dateTime,
  },
  {
    title: "ReferringPhysician",
    examples: [
      {
        id: "4",
        first_name: "Maya",
        last_name: "Lindqvist",
        npi: "1234567893",
        phone_number: "312-555-0199",
        fax_number: null,
        address1: "201 E Huron St",
        address2: null,
        city: "Chicago",
        state: "IL",
        zip: "60611",
        created_at: "2027-01-05T15:00:00.000Z",
        updated_at: "2027-01-05T15:00:00.000Z",
      },
    ],
  },
);

const view = (p: ReferringPhysician) => ({
  id: String(p.id),
  ...physicianWireFields(p),
  created_at: p.createdAt.toISOString(),
  updated_at: p.updatedAt.toISOString(),
});

/** Referring physicians on v2 (spec 4.7) over the registry v1 cases point into. */
export function v2ReferringPhysicianRoutes({ practice }: RouteDependencies): RouteDefinition[] {
  const route = routeGroup({
    contract: "v2",
    tags: ["Referring physicians (v2 beta)"],
    auth: true,
    scopes: scopePair("cases"),
    rateLimitBucket: "v2",
    fieldNames: V1_PHYSICIAN_FIELDS,
  });
  const physicians = resourceRoutes(route, {
    path: "/v2/referring-physicians",
    item: "/v2/referring-physicians/:referring_physician_id",
    ids: { referring_physician_id: PHYSICIAN_ID },
    view,
    reply: physicianSchema,
    conflict: "DUPLICATE_REFERRING_PHYSICIAN: details.existing_referring_physician_id has the NPI",
  });
  return [
    physicians.create({
      auditResource: "referring_physician",
      operationId: "v2CreateReferringPhysician",
      summary: "Add a referring physician to the registry; NPI unique in the organisation.",
      description: "The physician",
      requestBody: createSchema,
      async handle(ctx) {
        return practice.referringPhysicians.create(ctx.principal, v1PhysicianDraftFromBody(await ctx.body()));
      },
    }),
    physicians.list({
      operationId: "v2ListReferringPhysicians",
      summary: "The registry, or the physicians `query` finds by name or NPI.",
      description: "A page of physicians",
      query: listQuery,
      async handle(ctx) {
        const q = ctx.query();
        const found = await practice.referringPhysicians.search(ctx.principal, {
          q: q.query,
          page: q.page,
          size: q.per_page,
        });
        return { rows: found.physicians, page: found.page, perPage: found.size, total: found.total };
      },
    }),
    physicians.get({
      operationId: "v2GetReferringPhysician",
      summary: "Read a referring physician.",
      description: "The physician",
      handle: (ctx) => practice.referringPhysicians.get(ctx.principal, ctx.ids.referring_physician_id),
    }),
    physicians.update({
      operationId: "v2UpdateReferringPhysician",
      summary:
        "Change a physician (omitted fields keep their values). One without a whole address (address1, city, state, zip) cannot be updated until the change supplies it (spec 7.5): 400 naming the missing fields.",
      description: "The physician after the change",
      requestBody: updateSchema,
      async handle(ctx) {
        const changes = v1PhysicianChangesFromBody(await ctx.body());
        return practice.referringPhysicians.update(ctx.principal, ctx.ids.referring_physician_id, changes, {
          requireAddress: true,
        });
      },
    }),
  ];
}
