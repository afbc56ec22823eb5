import type { Practice } from "@openpractice/core";
import { fhirResponse } from "../contracts/fhir-contract.js";
import { routeGroup } from "../define-route.js";
import type { RouteContext, RouteDefinition, RouteDependencies } from "../route.js";
import type { JsonSchema } from "../validation/json-schema.js";
import { searchsetBundle } from "./fhir-bundle.js";
import { capabilityStatement, FHIR_VERSION } from "./fhir-capability-statement.js";
import { directoryResourceTypes } from "./fhir-directory-resources.js";
import { appointmentResourceType } from "./fhir-appointment-resource.js";
import { coverageResourceType } from "./fhir-coverage-resource.js";
import { clinicalResourceTypes } from "./fhir-clinical-resources.js";
import { schedulingResourceTypes } from "./fhir-scheduling-resources.js";
import { documentResourceTypes } from "./fhir-document-resources.js";
import { patientResourceType } from "./fhir-patient-resource.js";
import type { FhirResourceType } from "./fhir-resource-type.js";
import { isLenient, readSearch } from "./fhir-search-request.js";
import { issuerUrlOf } from "../access/issuer-url.js";
import { smartConfigurationRoute, smartReadScopes } from "./smart-configuration.js";
import { bulkExportRoutes } from "./bulk-export-routes.js";

/** Where the facade is served. */
export const FHIR_BASE_PATH = "/fhir/R4";

/** The facade's resource types, in the CapabilityStatement's order (docs/fhir.md has the same table). */
export function fhirResourceTypes(practice: Practice): FhirResourceType[] {
  return [
    patientResourceType(practice),
    ...directoryResourceTypes(practice),
    appointmentResourceType(practice),
    ...schedulingResourceTypes(practice),
    coverageResourceType(practice),
    ...clinicalResourceTypes(practice),
    ...documentResourceTypes(practice),
  ];
}

/** The base URL of the facade for links: the configured public URL, else the request's origin and mount path. */
function baseOf(ctx: Pick<RouteContext, "url" | "basePath">, publicUrl: string | undefined): string {
  const root = publicUrl ? publicUrl.replace(/\/+$/, "") : `${ctx.url.origin}${ctx.basePath}`;
  return `${root}${FHIR_BASE_PATH}`;
}

const resourceSchema = (type: string): JsonSchema => ({
  title: `Fhir${type}`,
  type: "object",
  description: `A FHIR R4 ${type} (docs/fhir.md, "${type}")`,
  required: ["resourceType", "id"],
  properties: { resourceType: { type: "string", const: type }, id: { type: "string" } },
  additionalProperties: true,
});

const BUNDLE_SCHEMA: JsonSchema = {
  title: "FhirSearchsetBundle",
  type: "object",
  description: "A FHIR R4 Bundle of type searchset: entry[].resource, link self and next",
  required: ["resourceType", "type", "link", "entry"],
  properties: {
    resourceType: { type: "string", const: "Bundle" },
    type: { type: "string", const: "searchset" },
    link: { type: "array", items: { type: "object", additionalProperties: true } },
    entry: { type: "array", items: { type: "object", additionalProperties: true } },
  },
  additionalProperties: true,
};

const CAPABILITY_SCHEMA: JsonSchema = {
  title: "FhirCapabilityStatement",
  type: "object",
  required: ["resourceType", "fhirVersion", "rest"],
  properties: {
    resourceType: { type: "string", const: "CapabilityStatement" },
    fhirVersion: { type: "string", const: FHIR_VERSION },
    rest: { type: "array", items: { type: "object", additionalProperties: true } },
  },
  additionalProperties: true,
};

/** The search parameters as the OpenAPI document lists them (the handler reads the query itself). */
function querySchema(t: FhirResourceType): JsonSchema {
  const properties: Record<string, JsonSchema> = {
    _count: { type: "string", description: "Page size, 0 to 100 (default 20)" },
    _offset: { type: "string", description: "Matches to skip (the next link carries it)" },
    _sort: { type: "string", description: `Order: ${t.sorts.join(", ")} (a leading - descends)` },
    _format: { type: "string", description: "json or application/fhir+json" },
  };
  for (const p of t.searchParams)
    properties[p.name] = {
      type: "string",
      description: `${p.type}: ${p.documentation}${p.modifiers?.length ? ` (modifiers :${p.modifiers.join(", :")})` : ""}`,
    };
  return { type: "object", properties };
}

/** GET /fhir/R4/metadata, and read and search of every resource type. */
export function fhirRoutes({ practice, publicUrl, tokenIssuer }: RouteDependencies): RouteDefinition[] {
  const types = fhirResourceTypes(practice);
  const started = practice.clock.now();
  const route = routeGroup({ contract: "fhir", tags: ["FHIR R4"], auth: true });
  return [
    route({
      method: "GET",
      path: `${FHIR_BASE_PATH}/metadata`,
      operationId: "fhirCapabilities",
      summary: "The FHIR CapabilityStatement: the resource types, interactions and search parameters that answer here.",
      auth: false,
      responses: { "200": { description: "The CapabilityStatement", schema: CAPABILITY_SCHEMA } },
      async handle(ctx) {
        const token = tokenIssuer ? `${issuerUrlOf(ctx, publicUrl)}/oauth/token` : undefined;
        return fhirResponse(
          200,
          capabilityStatement(types, baseOf(ctx, publicUrl), { version: "0.1.0", started }, token),
        );
      },
    }),
    ...(tokenIssuer ? [smartConfigurationRoute(types, publicUrl)] : []),
    // Before the types' routes: Patient/$export is not a Patient read.
    ...bulkExportRoutes(practice, types, FHIR_BASE_PATH, (ctx) => baseOf(ctx, publicUrl)),
    ...types.flatMap((t) => {
      const scopes = Object.freeze([...smartReadScopes(t.type), ...t.scopes]);
      const search = t.search?.bind(t);
      return [
        ...(search
          ? [
              route({
                method: "GET",
                path: `${FHIR_BASE_PATH}/${t.type}`,
                operationId: `fhirSearch${t.type}`,
                summary: `Search ${t.type} resources (${t.source}): a searchset Bundle with self and next links.`,
                scopes,
                rateLimitBucket: "fhir",
                readsOnly: true,
                rawQuery: true,
                query: querySchema(t),
                responses: {
                  "200": { description: `A searchset Bundle of ${t.type} resources`, schema: BUNDLE_SCHEMA },
                  "400": {
                    description:
                      "INVALID_PARAMETER or VALIDATION_FAILED: an unknown search parameter or modifier (unless Prefer: handling=lenient), a malformed value, a _count over 100; each issue's expression names it",
                    schema: { $ref: "#/components/schemas/FhirOperationOutcome" },
                  },
                },
                async handle(ctx) {
                  const asked = readSearch(t, ctx.url, isLenient(ctx.request));
                  const page = await search({ principal: ctx.principal }, asked);
                  return fhirResponse(200, searchsetBundle(baseOf(ctx, publicUrl), t.type, asked, page, ctx.now));
                },
              }),
            ]
          : []),
        route({
          method: "GET",
          path: `${FHIR_BASE_PATH}/${t.type}/:id`,
          operationId: `fhirRead${t.type}`,
          summary: `Read one ${t.type} (${t.source}) by id.`,
          scopes,
          rateLimitBucket: "fhir",
          readsOnly: true,
          responses: {
            "200": t.readRaw
              ? {
                  description: `The content, as its own media type (Accept: application/fhir+json answers a ${t.type} resource with it in base64)`,
                  binaryContentType: "*/*",
                }
              : { description: `The ${t.type}`, schema: resourceSchema(t.type) },
            "404": {
              description: `FHIR_RESOURCE_NOT_FOUND or the record's own not-found code: no such ${t.type} in the caller's organisation (or out of the token's clinics)`,
              schema: { $ref: "#/components/schemas/FhirOperationOutcome" },
            },
          },
          async handle(ctx) {
            const request = { principal: ctx.principal };
            if (t.readRaw && !/application\/(fhir\+)?json/i.test(ctx.request.headers.get("accept") ?? ""))
              return t.readRaw(request, ctx.params.id, ctx.request);
            return fhirResponse(200, await t.read(request, ctx.params.id));
          },
        }),
      ];
    }),
  ];
}
