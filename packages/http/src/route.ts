import type { Practice, Principal } from "@openpractice/core";
import type { TokenIssuer } from "./auth/token-issuer.js";
import type { JwksFetch } from "./access/client-assertion.js";
import type { FieldNames } from "./contracts/field-names.js";
import type { PathIdKind } from "./contracts/path-id.js";
import type { SchemaValidator } from "./validation/ajv-validator.js";
import type { JsonSchema } from "./validation/json-schema.js";

/** Which wire contract a route speaks; it decides how errors are rendered. */
export type Contract = "v1" | "v2" | "fhir" | "system";

/**
 * What a handler receives. A route declared with `route()` (define-route.ts) sees `body()`, `query()`,
 * `params` and `ids` typed from its own schemas and path; the handler table holds the erased form.
 */
export interface RouteContext<
  Body = unknown,
  Query = Record<string, unknown>,
  Param extends string = string,
  Ids = Readonly<Record<string, number>>,
> {
  request: Request;
  url: URL;
  params: Readonly<Record<Param, string>>;
  /** Present on routes with `auth: true`. */
  principal: Principal;
  requestId: string;
  now: Date;
  /** The caller's network address as the host saw it (FetchHandler's second argument), when the host passes it. */
  remoteAddress?: string | undefined;
  /** The path the host mounted the API under ("" at the root), from X-Forwarded-Prefix; prefix Location headers with it. */
  basePath: string;
  /** The JSON body, validated against the route's requestBody schema. */
  body(): Promise<Body>;
  /** The query string as an object, validated (and coerced) against the route's query schema. */
  query(): Query;
  /** The path ids the route declares (`ids`), parsed before the handler runs. */
  ids: Ids;
  /**
   * Headers the answer carries whatever it turns out to be, an error's included (a 416's Content-Range, a
   * Connection: close when a refused upload's body was left unread). Set by the handler table.
   */
  responseHeaders?: Record<string, string>;
}

export interface RouteDefinition {
  method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  /** rou3 path pattern, e.g. /v2/patients/:id */
  path: string;
  contract: Contract;
  operationId: string;
  summary: string;
  tags: string[];
  auth: boolean;
  /**
   * A platform operator's route (/v2/organisations): only platform tokens (scope platform:admin, no organisation)
   * are let in, and platform tokens are let into no other route.
   */
  platform?: boolean;
  /** The kind of record the audit trail names for this route's writes; default: read from the path. */
  auditResource?: string;
  /**
   * The audit entry names the record the operation creates (the service notes it) rather than the path's last id:
   * an upload under /patient/:patient_id/documents is the document's entry, not the patient's.
   */
  auditNamesCreated?: boolean;
  /** The principal must hold one of these scopes. */
  scopes?: readonly string[];
  /**
   * What a token restricted to clinics (clinic_id_list) is refused here with 403 INSUFFICIENT_PERMISSIONS, e.g.
   * "adding a clinic": the OpenAPI document's 403 names it beside the scopes.
   */
  clinicRestriction?: string;
  /** Count the request against the organisation's plan budget in this bucket. */
  rateLimitBucket?: string;
  /**
   * The handler changes nothing (no write, no event), so it may start while the
   * request's rate-limit hit is being counted; over the budget its result is dropped.
   */
  readsOnly?: boolean;
  /**
   * The handler writes only through `storage.transaction`, awaits each transaction before the next, and calls no
   * other system before its first one, so the request's rate-limit hit may be counted by that transaction (one
   * commit per request where the engine has one writer: RateLimiter.runCounted). Over the budget the answer is
   * still 429 and nothing but the counter changed: a refused request's later transactions fail as well, and a
   * handler that returns before its transaction ends gets an error.
   */
  hitWithWrite?: boolean;
  /**
   * The handler reads `ctx.url.searchParams` itself (FHIR search: parameters repeat, carry modifiers such as
   * `family:exact`): `query` only documents them, and the handler table checks the query's encoding alone.
   */
  rawQuery?: boolean;
  requestBody?: JsonSchema;
  /** The media type the OpenAPI document gives requestBody; default application/json (which ctx.body() reads). */
  requestContentType?: string;
  query?: JsonSchema;
  /** Path parameters read as ids: a text that names no id answers the kind's not-found error. */
  ids?: Readonly<Record<string, PathIdKind>>;
  /**
   * OpenAPI responses: status → schema of the body (JSON unless `contentType` names another media type), or the
   * media type of a binary body (e.g. application/pdf). A reply schema with a `title` is a named component.
   */
  responses: Record<
    string,
    { description: string; schema?: JsonSchema; contentType?: string; binaryContentType?: string }
  >;
  /**
   * v1 client errors of this route use this HTTP status instead of their own
   * (the code in the body still says which error): spec 7.1 delivers SOAP note
   * creation errors with HTTP 200. 401, 429 and 5xx keep their status.
   */
  v1ErrorStatus?: number;
  /** Domain field → wire field, for this route's validation errors. */
  fieldNames?: FieldNames;
  handle(ctx: RouteContext): Promise<Response>;
}

export interface RouteDependencies {
  practice: Practice;
  bodyValidator: SchemaValidator;
  /** Every scope some route accepts (read once the route table is built): API clients may only be granted these. */
  knownScopes: () => ReadonlySet<string>;
  /** The URL clients reach the API at (HttpHandlerOptions.publicUrl), or undefined. */
  publicUrl?: string | undefined;
  /** Signs the tokens of POST /oauth/token; without it the token endpoint and the JWKS are not served. */
  tokenIssuer?: TokenIssuer | undefined;
  /** Fetches API clients' JWK Set URLs (HttpHandlerOptions.fetchJwks); default: the global fetch. */
  fetchJwks?: JwksFetch | undefined;
}
