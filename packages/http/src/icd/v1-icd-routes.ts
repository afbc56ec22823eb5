import { dottedIcdCode, type IcdCode10 } from "@openpractice/core";
import { V1_PAGINATION_SCHEMA, v1EnvelopeSchema, v1Pagination, v1Success } from "../contracts/v1-contract.js";
import {
  arrayOf,
  described,
  id,
  integer,
  integerOrNull,
  oneOfStrings,
  replyObject,
  plainText,
} from "../openapi/reply-schemas.js";
import { routeGroup } from "../define-route.js";
import type { RouteDefinition, RouteDependencies } from "../route.js";

const view = (c: IcdCode10) => ({
  id: c.orderNumber,
  code: dottedIcdCode(c.code),
  description: c.longDescription,
  short_description: c.shortDescription,
  revision: "ICD10",
  billing_type: c.billable ? "BILLABLE" : "NON_BILLABLE",
  code_set_year: c.year,
});

const ICD_CODE_SCHEMA = replyObject(
  {
    id: described(id, "The CMS order number: stable within the code set year"),
    code: described(plainText, "With the dot, e.g. M54.50"),
    description: plainText,
    short_description: plainText,
    revision: oneOfStrings(["ICD10"]),
    billing_type: oneOfStrings(["BILLABLE", "NON_BILLABLE"]),
    code_set_year: integer,
  },
  { title: "V1Icd10CmCode" },
);

export function v1IcdRoutes({ practice }: RouteDependencies): RouteDefinition[] {
  const route = routeGroup({ contract: "v1", tags: ["ICD-10-CM (v1)"], auth: true });
  return [
    route({
      method: "GET",
      path: "/apis/soap-enrichment/v1/bcs/icd/search",
      operationId: "v1SearchIcdCodes",
      summary:
        "Find ICD-10-CM codes by code (with or without the dot, by prefix; the exact code first) or by words of the description in any order (each word a word start; shortest description first).",
      scopes: Object.freeze(["notes:read", "cases:read", "read"]),
      query: {
        type: "object",
        additionalProperties: false,
        required: ["q"],
        properties: {
          q: { type: "string", minLength: 1, maxLength: 100 },
          speciality: {
            type: "string",
            maxLength: 30,
            description: "Accepted for compatibility; it does not filter today",
          },
          rev: { type: "string", maxLength: 10, description: "ICD10 (the only revision)" },
          page: { type: "integer", minimum: 1, default: 1 },
          size: { type: "integer", minimum: 1, maximum: 100, default: 20 },
        },
      },
      responses: {
        "200": {
          description: "A page of codes, with the code set year searched (null before any import)",
          schema: v1EnvelopeSchema(
            replyObject({
              codes: arrayOf(ICD_CODE_SCHEMA),
              code_set_year: integerOrNull,
              pagination: V1_PAGINATION_SCHEMA,
            }),
          ),
        },
        "400": { description: "INVALID_PARAMETER", schema: { $ref: "#/components/schemas/V1Error" } },
      },
      async handle(ctx) {
        const q = ctx.query();
        const found = await practice.icd.search({
          q: q.q,
          speciality: q.speciality,
          rev: q.rev,
          page: q.page,
          size: q.size,
        });
        return v1Success({ codes: found.codes.map(view), code_set_year: found.year, pagination: v1Pagination(found) });
      },
    }),
  ];
}
