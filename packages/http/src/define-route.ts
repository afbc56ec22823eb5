import type { FromSchema, JSONSchema } from "json-schema-to-ts";
import type { FieldNames } from "./contracts/field-names.js";
import type { PathIdKind } from "./contracts/path-id.js";
import type { Contract, RouteContext, RouteDefinition } from "./route.js";
import type { JsonSchema } from "./validation/json-schema.js";

/** The parameter names of a rou3 path pattern: "/v2/patients/:id/cards/:card_id" → "id" | "card_id". */
export type PathParams<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParams<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/**
 * The static type of a request schema, as ajv checks it. Defaults are not filled in by the
 * validator, so a property with a default stays optional.
 */
export type Static<S> = S extends JSONSchema ? FromSchema<S, { keepDefaultedPropertiesOptional: true }> : never;

/** The type of `ctx.body()` for body schema `S`. */
export type BodyOf<S> = [S] extends [undefined] ? unknown : Static<S>;
/** The type of `ctx.query()` for query schema `S`; without a schema the query is the raw text of each parameter. */
export type QueryOf<S> = [S] extends [undefined] ? Readonly<Record<string, string | undefined>> : Static<S>;

/** The read and write scopes of a resource; each also accepts the broad `read` or `write`. */
export interface ScopePair {
  readonly read: readonly string[];
  readonly write: readonly string[];
}

export function scopePair(resource: string): ScopePair {
  return Object.freeze({
    read: Object.freeze([`${resource}:read`, "read"]),
    write: Object.freeze([`${resource}:write`, "write"]),
  });
}

/** What every route of a group shares: contract, tags, authentication, scopes and field names. */
export interface RouteGroup {
  contract: Contract;
  tags: string[];
  auth: boolean;
  /** `access: "read" | "write"` on a route picks its scopes from this pair. */
  scopes?: ScopePair;
  fieldNames?: FieldNames;
  rateLimitBucket?: string;
  /** Platform routes (RouteDefinition.platform). */
  platform?: boolean;
}

/** One entry of a route's `responses`: the description of a reply and its schema. */
export type ResponseSpec = RouteDefinition["responses"][string];

/** One route as written in a domain's routes file; its handler's inputs are typed from `path`, `requestBody`, `query` and `ids`. */
export interface RouteSpec<P extends string, B, Q, I> {
  method: RouteDefinition["method"];
  path: P;
  operationId: string;
  summary: string;
  /** Picks the group's read or write scopes; `scopes` names others. */
  access?: "read" | "write";
  scopes?: readonly string[];
  tags?: string[];
  /** Overrides the group's: a public route among authenticated ones. */
  auth?: boolean;
  rateLimitBucket?: string;
  readsOnly?: boolean;
  hitWithWrite?: boolean;
  rawQuery?: boolean;
  requestBody?: B;
  query?: Q;
  ids?: I;
  responses: Record<string, ResponseSpec>;
  v1ErrorStatus?: number;
  fieldNames?: FieldNames;
  auditResource?: string;
  auditNamesCreated?: boolean;
  requestContentType?: string;
  clinicRestriction?: string;
  handle(
    ctx: RouteContext<BodyOf<B>, QueryOf<Q>, PathParams<P>, { readonly [K in keyof I]: number }>,
  ): Promise<Response>;
}

const ERROR_BODY = {
  v1: { $ref: "#/components/schemas/V1Error" },
  v2: { $ref: "#/components/schemas/V2Error" },
  fhir: { $ref: "#/components/schemas/FhirOperationOutcome" },
} as const;

/**
 * The error answers every route of its kind can give, so the OpenAPI document lists them without each
 * route repeating them: 400 for a body or query, 403 for a scope, 404 for a path id, 429 for a budget.
 * A route's own entry for a status wins.
 */
function commonResponses(route: RouteDefinition): Record<string, ResponseSpec> {
  const schema = route.contract === "v1" ? ERROR_BODY.v1 : route.contract === "fhir" ? ERROR_BODY.fhir : ERROR_BODY.v2;
  const out: Record<string, ResponseSpec> = {};
  // A route whose v1 client errors come with another status (v1ErrorStatus) answers none of 400, 403 and 404.
  const ownStatus = route.v1ErrorStatus === undefined;
  const invalid = [
    route.requestBody ? "VALIDATION_FAILED naming the field" : undefined,
    route.query ? "INVALID_PARAMETER naming the parameter" : undefined,
  ].filter(Boolean);
  if (invalid.length > 0 && ownStatus) out["400"] = { description: invalid.join("; "), schema };
  if (route.scopes && ownStatus)
    out["403"] = {
      description:
        `INSUFFICIENT_PERMISSIONS: the token holds none of ${route.scopes.join(", ")}` +
        (route.clinicRestriction
          ? `, or it is restricted to clinics (clinic_id_list) and ${route.clinicRestriction}`
          : ""),
      schema,
    };
  const notFound = [...new Set(Object.values(route.ids ?? {}).map((kind) => kind.notFound))];
  if (notFound.length > 0 && ownStatus) out["404"] = { description: notFound.join(" or "), schema };
  if (route.rateLimitBucket)
    out["429"] = { description: "RATE_LIMIT_EXCEEDED: the organisation's plan budget is spent (Retry-After)", schema };
  return out;
}

/**
 * The route helper of a group (hono's `RouteHandler<R>` in spirit): the handler's `body()`, `query()`,
 * `params` and `ids` carry the static types of the schemas ajv validates and the OpenAPI document
 * shows; `access` picks the group's scope pair; declared path ids are parsed before the handler runs.
 */
export function routeGroup(group: RouteGroup) {
  return function route<
    const P extends string,
    const B extends JSONSchema | undefined = undefined,
    const Q extends JSONSchema | undefined = undefined,
    const I extends { readonly [K in PathParams<P>]?: PathIdKind } = Record<never, PathIdKind>,
  >(spec: RouteSpec<P, B, Q, I>): RouteDefinition {
    const { access, ...rest } = spec;
    const scopes = spec.scopes ?? (access ? group.scopes?.[access] : undefined);
    if (access && !scopes)
      throw new Error(`Route ${spec.operationId} asks for ${access} access in a group without scopes`);
    const route: RouteDefinition = {
      contract: group.contract,
      auth: group.auth,
      ...(group.fieldNames ? { fieldNames: group.fieldNames } : {}),
      ...(group.rateLimitBucket ? { rateLimitBucket: group.rateLimitBucket } : {}),
      ...(group.platform ? { platform: true } : {}),
      ...(rest as Omit<typeof rest, "handle" | "requestBody" | "query" | "ids">),
      tags: spec.tags ?? group.tags,
      ...(scopes ? { scopes } : {}),
      ...(spec.requestBody ? { requestBody: spec.requestBody as JsonSchema } : {}),
      ...(spec.query ? { query: spec.query as JsonSchema } : {}),
      ...(spec.ids ? { ids: spec.ids as Readonly<Record<string, PathIdKind>> } : {}),
      // Typed inputs narrow the erased context; the handler table calls it with the same values.
      handle: spec.handle as RouteDefinition["handle"],
    };
    route.responses = { ...commonResponses(route), ...spec.responses };
    return route;
  };
}

/** The `route` function of a group (what `routeGroup` returns); `resourceRoutes` builds a resource's routes with it. */
export type RouteBuilder = ReturnType<typeof routeGroup>;
