import {
  DomainError,
  hasAnyScope,
  isPlatformPrincipal,
  type Practice,
  type Principal,
  RateLimitExceeded,
  type RateLimitDecision,
} from "@openpractice/core";
import { auditEntryOf, noteChangedFields } from "./audit-entry.js";
import { addRoute, createRouter, findRoute } from "rou3";
import type { Authenticator } from "./auth/authenticator.js";
import type { TokenIssuer } from "./auth/token-issuer.js";
import { bearerChallenge, carriesBearerToken } from "./auth/bearer-challenge.js";
import { contractOfPath } from "./contracts/path-contract.js";
import { readPathId, type PathIdKind } from "./contracts/path-id.js";
import { v1Error } from "./contracts/v1-contract.js";
import { v2Error } from "./contracts/v2-contract.js";
import { fhirError } from "./contracts/fhir-contract.js";
import type { JwksFetch } from "./access/client-assertion.js";
import { httpModules, V1_ERROR_MAP, V2_STATUS_MAP } from "./http-modules.js";
import { buildOpenApiDocument, openApiDocumentAt, type OpenApiDocument } from "./openapi/openapi-document.js";
import {
  lastResortReport,
  lastResortResponse,
  reportUnexpectedOnStderr,
  type LastResortContext,
} from "./last-resort.js";
import { DEFAULT_BODY_LIMIT_BYTES, readJsonBody } from "./request-body.js";
import { assertUtf8Query, parseQuery, requestIdFor } from "./request-context.js";
import type { Contract, RouteContext, RouteDefinition } from "./route.js";
import { systemRoutes, type DocsAssets } from "./system/system-routes.js";
import { securityHeaderWriter, type SecurityHeaderOptions } from "./security-headers.js";
import { SchemaValidator } from "./validation/ajv-validator.js";
import { assertStorableText } from "./validation/text-issues.js";
import type { RequestLogEntry } from "./request-hooks.js";

export interface HttpHandlerOptions {
  /** The instance the API serves (createPractice). */
  practice: Practice;
  /**
   * Turns a request into a principal (organisation, user, scopes, clinics): createJwtAuthenticator, or your own
   * (an EMR's session cookie, say); it throws DomainError UNAUTHORIZED to refuse.
   */
  authenticator: Authenticator;
  /** Signs tokens at POST /oauth/token and publishes /.well-known/jwks.json; without it neither is served. */
  tokenIssuer?: TokenIssuer | undefined;
  /**
   * The URL clients reach the API at, when a proxy stands between (https://emr.example.org/openpractice): the OAuth
   * metadata names it as the issuer. Default: the request's own origin and mount path.
   */
  publicUrl?: string | undefined;
  /**
   * Fetches API clients' JWK Set URLs (SMART Backend Services, docs/authentication.md); default: the global fetch.
   * The runtime passes one that refuses private and loopback addresses outside development.
   */
  fetchJwks?: JwksFetch | undefined;
  /** Largest accepted request body; default 1 MiB. */
  bodyLimitBytes?: number;
  /** Serves the API reference page's static files (the runtime passes swagger-ui-dist). */
  docsAssets?: DocsAssets;
  /**
   * Cache-Control: no-store, nosniff, Referrer-Policy, X-Frame-Options, the CSPs and HSTS over TLS, each
   * changeable or turned off (docs/embedding.md); `false` sends none of them (a host that sets its own).
   */
  securityHeaders?: SecurityHeaderOptions | false;
  /** Hears every finished request (route pattern, status, duration, error code; no bodies): your access log or metrics. */
  onRequestComplete?: (entry: RequestLogEntry) => void;
  /**
   * Receives defects (anything thrown that is not a DomainError, answered 500 INTERNAL_ERROR) and store outages
   * (503). Default: one JSON line on stderr per defect, with its stack (console.error).
   */
  onUnexpectedError?: (error: unknown, entry: Omit<RequestLogEntry, "status" | "durationMs">) => void;
}

/** What a host knows of the connection beyond the request (optional: the token endpoint's throttle uses the address). */
export interface ConnectionInfo {
  remoteAddress?: string | undefined;
}

export type FetchHandler = (request: Request, connection?: ConnectionInfo) => Promise<Response>;

/** GET routes whose reads an organisation with audit_reads records: those of patient records. */
/** A read of patient records: v1 and v2 patient paths, and the FHIR facade's Patient, Coverage, Encounter, Condition, DocumentReference and Binary. */
const readsPatientRecords = (route: RouteDefinition) =>
  route.method === "GET" &&
  (/\/patients?(\/|$)/.test(route.path) ||
    /^\/fhir\/R4\/(\$export|\$export-file|Patient|Coverage|Encounter|Condition|DocumentReference|Binary)(\/|$)/.test(
      route.path,
    ));

/** Platform tokens go to platform routes only, and only they do. */
function assertPlatformFit(route: RouteDefinition, principal: Principal) {
  const platform = isPlatformPrincipal(principal);
  if (route.platform && !platform)
    throw new DomainError("INSUFFICIENT_PERMISSIONS", "This operation needs a platform token (scope platform:admin)", {
      required_scope: "platform:admin",
      accepted_scopes: ["platform:admin"],
      current_scopes: [...principal.scopes],
    });
  if (!route.platform && platform)
    throw new DomainError(
      "INSUFFICIENT_PERMISSIONS",
      "A platform token acts on organisations only (/v2/organisations); use a token of the organisation",
      { required_scope: route.scopes?.[0] ?? "read", accepted_scopes: [...(route.scopes ?? [])], current_scopes: [] },
    );
}

const readPathIds = (kinds: Readonly<Record<string, PathIdKind>>, params: Readonly<Record<string, string>>) =>
  Object.fromEntries(Object.entries(kinds).map(([name, kind]) => [name, readPathId(kind, params[name])]));

export { contractOfPath };

/** RFC 6750 section 3: the realm for a request without a bearer token, an error code for a bad token or a missing scope. */
function challengeFor(error: DomainError, request: Request): string | undefined {
  if (error.code === "UNAUTHORIZED") {
    const reason = typeof error.details.reason === "string" ? error.details.reason : error.message;
    return carriesBearerToken(request)
      ? bearerChallenge({ code: "invalid_token", description: reason })
      : bearerChallenge();
  }
  if (error.code === "INSUFFICIENT_PERMISSIONS")
    return bearerChallenge({ code: "insufficient_scope", description: error.message });
  return undefined;
}

/** A safe path prefix from X-Forwarded-Prefix: "/segment/segment" of URL path characters, or "". */
function mountPath(raw: string | null): string {
  const value = (raw ?? "").trim().replace(/\/+$/, "");
  return /^(\/[A-Za-z0-9._~-]+){1,8}$/.test(value) ? value : "";
}

/** The whole API (v1, v2, system routes) as one web-standard fetch handler. Each call builds independent state. */
export function createHttpHandler(options: HttpHandlerOptions): FetchHandler {
  const { practice, authenticator } = options;
  // Defects are always reported somewhere: the host's reporter, else stderr.
  const reporting = { ...options, onUnexpectedError: options.onUnexpectedError ?? reportUnexpectedOnStderr };
  const bodyLimit = options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  const writeSecurityHeaders = securityHeaderWriter(options.securityHeaders);
  const bodyValidator = new SchemaValidator();
  const queryValidator = new SchemaValidator({ coerceTypes: true });
  let knownScopes: ReadonlySet<string> = new Set();
  const deps = {
    practice,
    bodyValidator,
    knownScopes: () => knownScopes,
    tokenIssuer: options.tokenIssuer,
    publicUrl: options.publicUrl,
    fetchJwks: options.fetchJwks,
  };
  let openApi: OpenApiDocument | undefined;
  const routes = [
    ...httpModules.flatMap((module) => module.routes(deps)),
    ...systemRoutes({
      practice,
      openApi: (basePath) => openApiDocumentAt(openApi as OpenApiDocument, basePath),
      docsAssets: options.docsAssets,
    }),
  ];
  knownScopes = new Set(routes.flatMap((r) => (r.platform ? [] : (r.scopes ?? []))));
  openApi = buildOpenApiDocument(routes.filter((r) => !r.path.startsWith("/docs/")));

  const router = createRouter<RouteDefinition>();
  for (const route of routes) addRoute(router, route.method, route.path, route);

  function renderError(
    error: DomainError,
    contract: Contract,
    route: RouteDefinition | undefined,
    requestId: string,
    headers: Record<string, string>,
  ): Response {
    if (contract === "fhir") return fhirError(error, V2_STATUS_MAP[error.code], route?.fieldNames, headers);
    return contract === "v2"
      ? v2Error(error, V2_STATUS_MAP[error.code], { requestId, now: practice.clock.now() }, route?.fieldNames, headers)
      : v1Error(error, V1_ERROR_MAP[error.code], route?.fieldNames, headers, route?.v1ErrorStatus);
  }

  async function run(
    route: RouteDefinition,
    ctx: RouteContext,
    request: Request,
    headers: Record<string, string>,
    setPrincipal: (p: Principal) => void,
  ): Promise<Response> {
    const serve = async () => {
      if (route.auth && route.scopes && !hasAnyScope(ctx.principal, route.scopes)) {
        throw new DomainError(
          "INSUFFICIENT_PERMISSIONS",
          `This operation needs the ${route.scopes.join(" or ")} scope`,
          {
            required_scope: route.scopes[0],
            accepted_scopes: [...route.scopes],
            current_scopes: [...ctx.principal.scopes],
          },
        );
      }
      ctx.query(); // validate the query before any work
      if (route.ids) ctx.ids = readPathIds(route.ids, ctx.params);
      if (!route.auth || isPlatformPrincipal(ctx.principal)) return route.handle(ctx);
      const { organisationId } = ctx.principal;
      if (route.method === "GET") {
        const response = await route.handle(ctx);
        if (
          response.status < 300 &&
          readsPatientRecords(route) &&
          (await practice.organisationAccess.auditsReads(organisationId))
        )
          await practice.audit.record(
            organisationId,
            auditEntryOf(route, ctx, ctx.principal, `read:${route.operationId}`),
          );
        return response;
      }
      // A write commits its audit entry with its first transaction; the body's field names are added once read.
      const entry = auditEntryOf(route, ctx, ctx.principal);
      const readBody = ctx.body;
      ctx.body = () =>
        readBody().then((body) => {
          noteChangedFields(entry, body);
          return body;
        });
      return practice.audit.runAudited(organisationId, entry, () => route.handle(ctx));
    };
    let early: Promise<Response> | undefined;
    if (route.auth) {
      ctx.principal = await authenticator.authenticate(request);
      setPrincipal(ctx.principal);
      assertPlatformFit(route, ctx.principal);
      await practice.organisationAccess.assertActive(ctx.principal);
      if (await practice.sso.isRevoked(ctx.principal))
        throw new DomainError("UNAUTHORIZED", "Authentication required", { reason: "token was revoked" });
      if (route.rateLimitBucket && !isPlatformPrincipal(ctx.principal)) {
        const { organisationId } = ctx.principal;
        const bucket = route.rateLimitBucket;
        const answer = (decision: RateLimitDecision) => {
          headers["x-ratelimit-limit"] = String(decision.limit);
          headers["x-ratelimit-remaining"] = String(decision.remaining);
          headers["x-ratelimit-reset"] = String(Math.floor(decision.resetAt.getTime() / 1000));
          if (decision.allowed) return;
          headers["retry-after"] = String(decision.retryAfterSeconds);
          throw new RateLimitExceeded(decision);
        };
        if (route.hitWithWrite) {
          // The write's transaction counts the hit where the engine allows it; 429 still wins over any other answer.
          const { decision, outcome } = await practice.rateLimiter.runCounted(organisationId, bucket, serve);
          answer(decision);
          if (!outcome?.ok) throw outcome?.error;
          early = Promise.resolve(outcome.value);
        } else {
          const counted = practice.rateLimiter.consume(organisationId, bucket);
          // A read may run while its hit is counted: it saves a database round trip per request. An
          // organisation this process refused in this window waits for the count, so a client over
          // its budget does not cost reads. Errors of the read still come after a refusal.
          if (route.readsOnly && !practice.rateLimiter.refusedInCurrentWindow(organisationId, bucket)) {
            early = serve();
            early.catch(() => {}); // awaited below unless the request is refused
          }
          answer(await counted);
        }
      }
    }
    const response = await (early ?? serve());
    for (const [k, v] of Object.entries(headers)) response.headers.set(k, v);
    return response;
  }

  /** Calls a host's hook: one that throws must not change the reply, so its failure is only reported. */
  const callHook = (hook: () => void, entry: { requestId: string; method: string; route: string }) => {
    try {
      hook();
    } catch (error) {
      lastResortReport(error, {}, entry);
    }
  };

  async function respond(request: Request, seen: LastResortContext, connection?: ConnectionInfo): Promise<Response> {
    const started = performance.now();
    const url = new URL(request.url);
    const requestId = requestIdFor(request, practice.ids.uuid);
    const headers: Record<string, string> = { "x-request-id": requestId };
    // HEAD is GET without the body (RFC 9110 9.3.2), on every GET route.
    const head = request.method === "HEAD";
    const match = findRoute(router, head ? "GET" : request.method, url.pathname);
    const route = match?.data;
    // A wrong method answers in the contract of the routes at that path (the webhook and notification APIs are v2-like).
    const pathRoute =
      route ??
      ["GET", "POST", "PATCH", "PUT", "DELETE"].map((m) => findRoute(router, m, url.pathname)?.data).find(Boolean);
    const contract = pathRoute?.contract === "system" ? "v1" : (pathRoute?.contract ?? contractOfPath(url.pathname));
    const where = { requestId, method: request.method, route: route?.path ?? "(unmatched)" };
    Object.assign(seen, { requestId, contract, route: where.route, started });
    let organisationId: number | undefined;
    let errorCode: string | undefined;
    let response: Response;
    try {
      if (!route) {
        const allowed = ["GET", "POST", "PATCH", "PUT", "DELETE"].filter((m) => findRoute(router, m, url.pathname));
        if (allowed.includes("GET")) allowed.splice(1, 0, "HEAD");
        if (allowed.length > 0) {
          headers.allow = allowed.join(", ");
          throw new DomainError(
            "METHOD_NOT_ALLOWED",
            `Method ${request.method} is not allowed here; use ${allowed.join(", ")}`,
          );
        }
        throw new DomainError("ROUTE_NOT_FOUND", `No route for ${request.method} ${url.pathname}`);
      }
      let parsedQuery: Record<string, unknown> | undefined;
      let parsedBody: Promise<unknown> | undefined;
      const ctx: RouteContext = {
        request,
        url,
        params: (match?.params ?? {}) as Record<string, string>,
        principal: undefined as unknown as Principal,
        requestId,
        now: practice.clock.now(),
        basePath: mountPath(request.headers.get("x-forwarded-prefix")),
        remoteAddress: connection?.remoteAddress,
        query: () =>
          (parsedQuery ??= route.rawQuery
            ? (assertUtf8Query(url.search), {})
            : parseQuery(url, route.query, queryValidator)),
        ids: {},
        responseHeaders: headers,
        body: () =>
          (parsedBody ??= readJsonBody(request, bodyLimit).then(
            (body) => {
              if (route.requestBody) bodyValidator.assert(route.requestBody, body);
              else assertStorableText(body);
              return body;
            },
            (error: unknown) => {
              // The body was not read to its end: the connection cannot carry another request, whatever the
              // answer (a write counted after its body answers 429 over the budget, not 413).
              if (error instanceof DomainError && error.code === "PAYLOAD_TOO_LARGE") headers.connection = "close";
              throw error;
            },
          )),
      };
      response = await run(route, ctx, request, headers, (p) => (organisationId = p.organisationId));
    } catch (error) {
      errorCode = error instanceof DomainError ? error.code : "INTERNAL_ERROR";
      if (error instanceof DomainError) {
        const challenge = challengeFor(error, request);
        if (challenge) headers["www-authenticate"] = challenge;
        response = renderError(error, contract, route, requestId, headers);
        // A route that answers errors with 200 (spec 7.1) carries no challenge.
        if (response.status !== 401 && response.status !== 403) response.headers.delete("www-authenticate");
      } else if (practice.storage.isUnavailable?.(error)) {
        // Not a defect: the store is down or busy for now. Clients may retry.
        errorCode = "SERVICE_UNAVAILABLE";
        headers["retry-after"] = "5";
        callHook(() => reporting.onUnexpectedError(error, { ...where, organisationId }), where);
        response = renderError(
          new DomainError("SERVICE_UNAVAILABLE", "The database is unavailable for now; retry shortly"),
          contract,
          route,
          requestId,
          headers,
        );
      } else {
        callHook(() => reporting.onUnexpectedError(error, { ...where, organisationId }), where);
        response = renderError(
          new DomainError("INTERNAL_ERROR", "Internal error; the request id identifies it in the server log"),
          contract,
          route,
          requestId,
          headers,
        );
      }
    }
    // Errors count as authenticated replies: a 404 of an unmatched path may still name a record.
    writeSecurityHeaders(request, response, Boolean(route?.auth) || response.status >= 400);
    if (head) response = new Response(null, { status: response.status, headers: response.headers });
    callHook(
      () =>
        options.onRequestComplete?.({
          ...where,
          status: response.status,
          durationMs: Math.round((performance.now() - started) * 100) / 100,
          organisationId,
          errorCode,
        }),
      where,
    );
    return response;
  }

  return async function handle(request: Request, connection?: ConnectionInfo): Promise<Response> {
    const seen: LastResortContext = {};
    try {
      return await respond(request, seen, connection);
    } catch (failure) {
      // Rendering the error itself failed (or anything around it): a fixed reply that cannot fail.
      const response = lastResortResponse(failure, request, seen, reporting);
      writeSecurityHeaders(request, response, true);
      return response;
    }
  };
}
