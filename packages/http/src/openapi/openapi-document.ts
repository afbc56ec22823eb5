import { errorCodes } from "@openpractice/core";
import type { RouteDefinition } from "../route.js";
import type { JsonSchema } from "../validation/json-schema.js";

/** Strips ajv-only keywords ($id) so the schemas read as plain OpenAPI 3.1 schemas. */
function clean(schema: JsonSchema): JsonSchema {
  const { $id: _id, ...rest } = schema;
  return rest;
}

/**
 * The security requirement of a route: a bearer token holding one of its scopes. OpenAPI 3.1 lets a requirement of
 * an http scheme list role names; one requirement per accepted scope says "any one of them".
 */
const securityOf = (scopes: readonly string[] | undefined) =>
  scopes && scopes.length > 0 ? scopes.map((scope) => ({ bearerAuth: [scope] })) : [{ bearerAuth: [] }];

/**
 * The OpenAPI 3.1 document, built from the very schemas the routes validate
 * with, so the reference cannot drift from the behaviour.
 */
export function buildOpenApiDocument(routes: RouteDefinition[]): object {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = route.path.replace(/:(\w+)/g, "{$1}");
    const pathParams = [...route.path.matchAll(/:(\w+)/g)].map((m) => ({
      name: m[1],
      in: "path",
      required: true,
      schema: { type: "string" },
    }));
    const queryProps = (route.query?.properties ?? {}) as Record<string, JsonSchema>;
    const requiredQuery = new Set((route.query?.required ?? []) as string[]);
    const queryParams = Object.entries(queryProps).map(([name, schema]) => ({
      name,
      in: "query",
      required: requiredQuery.has(name),
      description: schema.description,
      schema: clean(schema),
    }));
    const responses = Object.fromEntries(
      Object.entries(route.responses).map(([status, r]) => [
        status,
        r.schema
          ? { description: r.description, content: { "application/json": { schema: clean(r.schema) } } }
          : r.binaryContentType
            ? {
                description: r.description,
                content: { [r.binaryContentType]: { schema: { type: "string", format: "binary" } } },
              }
            : { description: r.description },
      ]),
    );
    if (route.auth)
      responses["401"] ??= { description: "UNAUTHORIZED: missing, malformed, wrongly signed or expired token" };
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = {
      operationId: route.operationId,
      summary: route.summary,
      tags: route.tags,
      ...(route.auth ? { security: securityOf(route.scopes) } : { security: [] }),
      ...(route.scopes ? { "x-required-scopes": route.scopes } : {}),
      parameters: [...pathParams, ...queryParams],
      ...(route.requestBody
        ? {
            requestBody: {
              required: true,
              content: { [route.requestContentType ?? "application/json"]: { schema: clean(route.requestBody) } },
            },
          }
        : {}),
      responses,
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "OpenPractice clinical practice service",
      version: "0.1.0",
      description:
        "v1 (paths under /apis/...) answers in the envelope {code, data, message}; v2 (beta, /v2/...) answers with the resource itself and errors as {error, meta}.",
      license: { name: "Apache-2.0", identifier: "Apache-2.0" },
    },
    // Relative: the paths are served where the host mounted the API (the document's own URL without /openapi.json).
    servers: [{ url: "/", description: "This server" }],
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
      schemas: {
        V1Error: {
          type: "object",
          required: ["code", "data", "message"],
          properties: {
            code: {
              type: "integer",
              description: "v1 numeric code, e.g. 4000 validation, 4010 unauthorized, 4040 patient not found",
            },
            data: { type: "null" },
            message: { type: "string" },
            error_code: { type: "string", enum: [...errorCodes()] },
            errors: { type: "array", items: { $ref: "#/components/schemas/FieldIssue" } },
          },
        },
        V2Error: {
          type: "object",
          required: ["error", "meta"],
          properties: {
            error: {
              type: "object",
              required: ["code", "message", "details"],
              properties: {
                code: { type: "string", enum: [...errorCodes()] },
                message: { type: "string" },
                details: { type: "object" },
              },
            },
            meta: {
              type: "object",
              properties: { timestamp: { type: "string", format: "date-time" }, request_id: { type: "string" } },
            },
          },
        },
        FieldIssue: {
          type: "object",
          properties: { field: { type: "string" }, reason: { type: "string" }, value: {} },
        },
        V2Pagination: {
          type: "object",
          properties: {
            current_page: { type: "integer" },
            total_pages: { type: "integer" },
            total_count: {
              type: "integer",
              description:
                "Matches in all pages. For a `search`, exact up to the search count limit (default 1,000); above it, the limit, with total_count_exact false.",
            },
            total_count_exact: {
              type: "boolean",
              description: "False when total_count is a lower bound (a search with more matches than the count limit).",
            },
            per_page: { type: "integer" },
            has_next: { type: "boolean" },
            has_previous: { type: "boolean" },
            next_page: { type: ["integer", "null"] },
            previous_page: { type: ["integer", "null"] },
          },
        },
        V2Meta: {
          type: "object",
          properties: {
            timestamp: { type: "string", format: "date-time" },
            request_id: { type: "string" },
            api_version: { type: "string" },
          },
        },
      },
    },
  };
}
