import { PAYER_LIMITS, PAYER_TYPES, type Payer } from "@openpractice/core";
import type { FieldNames } from "../contracts/field-names.js";
import { pathIdKind } from "../contracts/path-id.js";
import { v2PageParameters } from "../contracts/v2-contract.js";
import { routeGroup, scopePair } from "../define-route.js";
import { boolean, described, idText, oneOfStrings, replyObject, plainText } from "../openapi/reply-schemas.js";
import { resourceRoutes } from "../resource-routes.js";
import type { RouteDefinition, RouteDependencies } from "../route.js";

const PAYER_REF = pathIdKind("PAYER_NOT_FOUND", "payer_ref");
/** Adding a payer of the organisation's own is an administrator's: `admin`, or `payers:write`. */
const ADMIN_SCOPES = Object.freeze(["payers:write", "admin"]);

const createSchema = {
  $id: "V2PayerCreate",
  type: "object",
  additionalProperties: false,
  required: ["payer_id", "name", "type"],
  properties: {
    payer_id: { type: "string", pattern: "^[A-Za-z0-9]{2,20}$", description: "The clearinghouse payer id" },
    name: { type: "string", minLength: 1, maxLength: PAYER_LIMITS.nameMax },
    type: { type: "string", enum: [...PAYER_TYPES] },
    eligibility: { type: "boolean", description: "Whether it answers real-time eligibility checks (default false)" },
    medicare_part_b: {
      type: "boolean",
      description:
        "Medicare Part B: the outpatient therapy rules apply to its coverages (only with type medicare; default false)",
    },
  },
} as const;

const listQuery = {
  type: "object",
  additionalProperties: false,
  properties: {
    ...v2PageParameters(PAYER_LIMITS.defaultPerPage, PAYER_LIMITS.maxPerPage),
    search: {
      type: "string",
      maxLength: PAYER_LIMITS.maxSearchLength,
      description: "Words that must all occur in the name or the payer id (case- and accent-insensitive)",
    },
    type: { type: "string", enum: [...PAYER_TYPES] },
  },
} as const;

const FIELDS: FieldNames = Object.freeze({
  payerId: "payer_id",
  name: "name",
  type: "type",
  medicarePartB: "medicare_part_b",
});

const payerView = (p: Payer) => ({
  id: String(p.id),
  payer_id: p.payerId,
  name: p.name,
  type: p.type,
  eligibility: p.eligibility,
  medicare_part_b: p.medicarePartB,
  source: p.organisationId === null ? "registry" : "organisation",
  active: p.active,
});
/** A payer as v2 shows it (payerView, docs/payers.md). */
const object = replyObject(
  {
    id: described(idText, "What GET /v2/payers/{payer_ref} takes"),
    payer_id: described(plainText, "The clearinghouse payer id"),
    name: plainText,
    type: oneOfStrings(PAYER_TYPES),
    eligibility: described(boolean, "Whether it answers real-time eligibility checks"),
    medicare_part_b: described(boolean, "Medicare Part B: the outpatient therapy rules apply to its coverages"),
    source: oneOfStrings(["registry", "organisation"], "The shared registry, or the organisation's own payer"),
    active: boolean,
  },
  { title: "Payer" },
);

/** Spec 4.7 `GET /v2/payers` (the registry, searchable and paged), a payer, and an organisation's own payers. */
export function v2PayerRoutes({ practice }: RouteDependencies): RouteDefinition[] {
  const route = routeGroup({
    contract: "v2",
    tags: ["Payers (v2 beta)"],
    auth: true,
    scopes: scopePair("payers"),
    rateLimitBucket: "v2",
    fieldNames: FIELDS,
  });
  const payers = resourceRoutes(route, {
    path: "/v2/payers",
    item: "/v2/payers/:payer_ref",
    ids: { payer_ref: PAYER_REF },
    view: payerView,
    reply: object,
    conflict: "DUPLICATE_PAYER: details.existing_payer_ref",
  });
  return [
    payers.list({
      operationId: "v2ListPayers",
      summary: "Search the payer registry and the organisation's own payers by name or payer id, by name.",
      description: "A page of payers",
      query: listQuery,
      async handle(ctx) {
        const q = ctx.query();
        const page = await practice.payers.search(ctx.principal, {
          page: q.page,
          perPage: q.per_page,
          search: q.search,
          type: q.type,
        });
        return { ...page, rows: page.payers };
      },
    }),
    payers.get({
      operationId: "v2GetPayer",
      summary: "Read a payer (`payer_ref` is its `id`, not the clearinghouse payer id).",
      description: "The payer",
      handle: (ctx) => practice.payers.get(ctx.principal, ctx.ids.payer_ref),
    }),
    payers.create({
      operationId: "v2CreatePayer",
      summary:
        "Admin: add a payer of the organisation's own (one the registry lacks). A payer id the registry or the organisation has is 409.",
      description: "The new payer",
      scopes: ADMIN_SCOPES,
      requestBody: createSchema,
      async handle(ctx) {
        const b = await ctx.body();
        return practice.payers.create(ctx.principal, {
          payerId: b.payer_id,
          name: b.name,
          type: b.type,
          eligibility: b.eligibility,
          medicarePartB: b.medicare_part_b,
        });
      },
    }),
  ];
}
