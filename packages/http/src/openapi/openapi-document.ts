import { V1_ERROR_SCHEMA } from "../contracts/v1-contract.js";
import { V2_ERROR_SCHEMA } from "../contracts/v2-contract.js";
import { FHIR_OPERATION_OUTCOME_SCHEMA } from "../contracts/fhir-contract.js";
import { contractOfPath } from "../contracts/path-contract.js";
import type { Contract, RouteDefinition } from "../route.js";
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

const COMPONENT_PREFIX = "#/components/schemas/";
const refTo = (name: string) => ({ $ref: `${COMPONENT_PREFIX}${name}` });
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** JSON with object keys sorted: two schemas are the same component when these texts are equal. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (isObject(value))
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`)
      .join(",")}}`;
  return JSON.stringify(value);
}

/** Keywords whose value is one subschema, a list of them, or a map of them (JSON Schema 2020-12). */
const ONE_SCHEMA = ["items", "not", "additionalProperties", "unevaluatedProperties", "contains", "if", "then", "else"];
const SCHEMA_LISTS = ["anyOf", "oneOf", "allOf", "prefixItems"];
const SCHEMA_MAPS = ["properties", "patternProperties", "$defs"];

/**
 * The named schemas of the document. A schema with a `title` is a component of that name: hoisting a schema
 * replaces each titled subschema with a $ref to it. Two different schemas with one title are a programming
 * error, refused when the document is built (the server does not start).
 */
class ComponentSchemas {
  readonly schemas: Record<string, JsonSchema> = {};
  private readonly texts = new Map<string, string>();

  hoist(schema: JsonSchema): JsonSchema {
    return this.walk(schema) as JsonSchema;
  }

  private walk(node: unknown): unknown {
    if (!isObject(node)) return node;
    const out: Record<string, unknown> = { ...node };
    // `examples`, `enum`, `const` and `default` hold instances, not schemas: they are not walked.
    for (const key of ONE_SCHEMA) if (isObject(out[key])) out[key] = this.walk(out[key]);
    for (const key of SCHEMA_LISTS)
      if (Array.isArray(out[key])) out[key] = (out[key] as unknown[]).map((s) => this.walk(s));
    for (const key of SCHEMA_MAPS)
      if (isObject(out[key]))
        out[key] = Object.fromEntries(Object.entries(out[key]).map(([name, s]) => [name, this.walk(s)]));
    return typeof out.title === "string" ? refTo(this.register(out.title, out)) : out;
  }

  private register(name: string, schema: JsonSchema): string {
    if (!/^[A-Z][A-Za-z0-9]*$/.test(name)) throw new Error(`OpenAPI component name ${name} is not PascalCase`);
    const text = canonicalJson(schema);
    const known = this.texts.get(name);
    if (known === undefined) {
      this.texts.set(name, text);
      this.schemas[name] = schema;
    } else if (known !== text) {
      throw new Error(`Two different schemas are named ${name}: give one another title (OpenAPI components)`);
    }
    return name;
  }

  /** The components, by name. */
  sorted(): Record<string, JsonSchema> {
    return Object.fromEntries(
      Object.keys(this.schemas)
        .sort()
        .map((name) => [name, this.schemas[name]!]),
    );
  }
}

/** Every $ref of the document names a component it has. */
function assertRefsResolve(node: unknown, schemas: Record<string, unknown>, where = "#"): void {
  if (Array.isArray(node)) node.forEach((item, i) => assertRefsResolve(item, schemas, `${where}/${i}`));
  else if (isObject(node)) {
    const ref = node.$ref;
    if (typeof ref === "string" && !(ref.startsWith(COMPONENT_PREFIX) && ref.slice(COMPONENT_PREFIX.length) in schemas))
      throw new Error(`OpenAPI document: ${where} refers to ${ref}, which it does not define`);
    for (const [key, value] of Object.entries(node))
      if (key !== "examples") assertRefsResolve(value, schemas, `${where}/${key}`);
  }
}

/**
 * The answer every route can give before it is reached: headerOverflowListener (header-overflow.ts) answers a
 * request whose headers exceed the server's limit with the 401 of the path's contract.
 */
const HEADER_OVERFLOW =
  "request headers over the server's limit (32 KiB with the runtime; an oversized token as a rule), answered before routing by headerOverflowListener in the error shape of the path (V2Error under /v2/, FhirOperationOutcome under /fhir/, else V1Error) with details.reason; a host that does not install the listener answers Node's bare 431 instead";

const errorSchemaOf = (contract: Contract) =>
  refTo(contract === "v2" ? "V2Error" : contract === "fhir" ? "FhirOperationOutcome" : "V1Error");
const sameSchema = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);

type ResponseSpec = RouteDefinition["responses"][string];

/** The 401 of a route: its own (authentication failures, in its contract's shape) and the header overflow's. */
function unauthorizedOf(route: RouteDefinition, declared: ResponseSpec | undefined): ResponseSpec {
  const overflow = errorSchemaOf(contractOfPath(route.path));
  if (!route.auth && !declared) return { description: `UNAUTHORIZED, only for ${HEADER_OVERFLOW}`, schema: overflow };
  const description = declared?.description ?? "UNAUTHORIZED: missing, malformed, wrongly signed or expired token";
  const own = declared?.schema ?? errorSchemaOf(route.contract);
  return {
    description: `${description}; also ${HEADER_OVERFLOW}`,
    schema: sameSchema(own, overflow) ? own : { anyOf: [own, overflow] },
  };
}

export interface OpenApiDocument {
  openapi: "3.1.0";
  servers: Array<{ url: string; description: string }>;
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, JsonSchema> } & Record<string, unknown>;
  [key: string]: unknown;
}

/**
 * The OpenAPI 3.1 document, built from the very schemas the routes validate
 * with, so the reference cannot drift from the behaviour. Reply schemas with a
 * `title` are named components, referred to with $ref.
 */
export function buildOpenApiDocument(routes: RouteDefinition[]): OpenApiDocument {
  const components = new ComponentSchemas();
  // The error shapes routes refer to by $ref ({ $ref: "#/components/schemas/V1Error" }).
  components.hoist(V1_ERROR_SCHEMA);
  components.hoist(V2_ERROR_SCHEMA);
  components.hoist(FHIR_OPERATION_OUTCOME_SCHEMA);
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
    const declared: Record<string, ResponseSpec> = {
      ...route.responses,
      "401": unauthorizedOf(route, route.responses["401"]),
    };
    const responses = Object.fromEntries(
      Object.entries(declared)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([status, r]) => [
          status,
          r.schema
            ? {
                description: r.description,
                content: {
                  [r.contentType ?? (route.contract === "fhir" ? "application/fhir+json" : "application/json")]: {
                    schema: components.hoist(clean(r.schema)),
                  },
                },
              }
            : r.binaryContentType
              ? {
                  description: r.description,
                  content: { [r.binaryContentType]: { schema: { type: "string", format: "binary" } } },
                }
              : { description: r.description },
        ]),
    );
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
  const document: OpenApiDocument = {
    openapi: "3.1.0",
    info: {
      title: "OpenPractice clinical practice service",
      version: "0.1.0",
      description:
        "v1 (paths under /apis/...) answers in the envelope {code, data, message}; v2 (beta, /v2/...) answers with the resource itself and errors as {error, meta}. Reply schemas list in `required` every property the server always sends (null when empty); resources are named schemas under components.",
      license: { name: "Apache-2.0", identifier: "Apache-2.0" },
    },
    servers: serversFor(""),
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
      schemas: components.sorted(),
    },
  };
  assertRefsResolve(document, document.components.schemas);
  return document;
}

/**
 * The server of the document: where the host mounted the API ("/emr" from X-Forwarded-Prefix, RouteContext.basePath),
 * relative to the document's own origin; "/" at the root.
 */
function serversFor(basePath: string): OpenApiDocument["servers"] {
  return [{ url: basePath || "/", description: "This server (the paths below are relative to it)" }];
}

/** The document as served under `basePath` ("" at the root): its servers name the mount path. */
export function openApiDocumentAt(document: OpenApiDocument, basePath: string): OpenApiDocument {
  return { ...document, servers: serversFor(basePath) };
}
