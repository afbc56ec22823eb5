import {
  CLIENT_ASSERTION_ALGORITHMS,
  DomainError,
  PLATFORM_ORGANISATION_ID,
  type ApiClient,
  type SsoIssuedToken,
} from "@openpractice/core";
import type { TokenIssuer } from "../auth/token-issuer.js";
import { BEARER_REALM } from "../auth/bearer-challenge.js";
import { jsonResponse } from "../contracts/json-response.js";
import { routeGroup } from "../define-route.js";
import { arrayOf, described, integer, oneOfStrings, replyObject, plainText } from "../openapi/reply-schemas.js";
import type { RouteContext, RouteDefinition, RouteDependencies } from "../route.js";
import { issuerUrlOf } from "./issuer-url.js";
import { assertionIssuer, CLIENT_ASSERTION_TYPE, createClientAssertionVerifier } from "./client-assertion.js";

/** The largest token request read; a client credentials request is a few hundred bytes. */
const FORM_LIMIT_BYTES = 8 * 1024;

/** RFC 6749 section 5.2: the error answer of the token endpoint, never cached. */
function oauthError(
  status: number,
  error: string,
  description: string,
  headers: Record<string, string> = {},
): Response {
  return jsonResponse(
    status,
    { error, error_description: description },
    { "cache-control": "no-store", pragma: "no-cache", ...headers },
  );
}

class OAuthRequestError extends Error {
  constructor(
    readonly error: string,
    description: string,
  ) {
    super(description);
  }
}

/** RFC 6749 2.3.1: client id and secret in Basic are form-urlencoded before base64. */
const formDecode = (text: string) => decodeURIComponent(text.replace(/\+/g, " "));

/** The client credentials of a token request: from the Basic header or the form (not both, RFC 6749 2.3). */
function clientCredentials(request: Request, form: URLSearchParams) {
  const header = request.headers.get("authorization");
  const inBody = form.has("client_id") || form.has("client_secret");
  if (header !== null) {
    const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
    if (!match)
      throw new OAuthRequestError("invalid_client", "the Authorization header must be Basic client credentials");
    if (inBody) throw new OAuthRequestError("invalid_request", "send client credentials in one way: Basic or the form");
    const decoded = Buffer.from(match[1] as string, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon < 0) throw new OAuthRequestError("invalid_client", "Basic credentials must be client_id:client_secret");
    try {
      return {
        clientId: formDecode(decoded.slice(0, colon)),
        secret: formDecode(decoded.slice(colon + 1)),
        basic: true,
      };
    } catch {
      throw new OAuthRequestError("invalid_client", "Basic credentials are not form-urlencoded");
    }
  }
  const clientId = form.get("client_id");
  const secret = form.get("client_secret");
  if (!clientId || !secret) throw new OAuthRequestError("invalid_client", "client authentication is required");
  return { clientId, secret, basic: false };
}

/** The form of a token request, refusing other media types, oversized bodies and repeated parameters. */
async function readForm(request: Request): Promise<URLSearchParams> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/x-www-form-urlencoded\b/i.test(type))
    throw new OAuthRequestError("invalid_request", "the body must be application/x-www-form-urlencoded");
  const text = await request.text();
  if (Buffer.byteLength(text) > FORM_LIMIT_BYTES)
    throw new OAuthRequestError("invalid_request", `the body exceeds ${FORM_LIMIT_BYTES} bytes`);
  const form = new URLSearchParams(text);
  const seen = new Set<string>();
  for (const key of form.keys()) {
    if (seen.has(key)) throw new OAuthRequestError("invalid_request", `parameter ${key} is repeated`);
    seen.add(key);
  }
  return form;
}

/** The token answer's claims for a client: its organisation (or platform), user id, name, clinics, granted scopes. */
async function issue(issuer: TokenIssuer, client: ApiClient, scopes: string[]) {
  const platform = client.organisationId === PLATFORM_ORGANISATION_ID;
  return issuer.sign({
    platform,
    organisationId: platform ? undefined : client.organisationId,
    userId: client.userId,
    name: client.name,
    clientId: client.clientId,
    scope: scopes.join(" "),
    clinicIds: client.clinicIds,
  });
}

/** A single sign-on token (docs/sso.md): the launching user's, for the web app's client, revocable by its jti. */
function issueSso(issuer: TokenIssuer, t: SsoIssuedToken) {
  return issuer.sign({
    organisationId: t.organisationId,
    userId: t.userId,
    name: t.name ?? undefined,
    clientId: t.clientId,
    scope: t.scopes.join(" "),
    clinicIds: t.clinicIds,
    sso: { tokenId: t.tokenId, lifetimeSeconds: t.lifetimeSeconds },
  });
}

const GRANT_TYPES = ["client_credentials", "authorization_code"] as const;

/** POST /oauth/token (RFC 6749 4.4 client credentials, 4.1 authorization code of single sign-on), its metadata (RFC 8414) and GET /.well-known/jwks.json (RFC 7517). */
export function oauthRoutes({ practice, tokenIssuer, publicUrl, fetchJwks }: RouteDependencies): RouteDefinition[] {
  if (!tokenIssuer) return [];
  const issuer = tokenIssuer;
  const route = routeGroup({ contract: "system", tags: ["OAuth"], auth: false });

  const verifyAssertion = createClientAssertionVerifier(fetchJwks);

  /** private_key_jwt (RFC 7523 section 2.2, SMART Backend Services): the client the signed assertion proves. */
  async function assertedClient(ctx: RouteContext, form: URLSearchParams, grantType: string): Promise<ApiClient> {
    if (form.get("client_assertion_type") !== CLIENT_ASSERTION_TYPE)
      throw new OAuthRequestError("invalid_request", `client_assertion_type must be ${CLIENT_ASSERTION_TYPE}`);
    const assertion = form.get("client_assertion");
    if (!assertion) throw new OAuthRequestError("invalid_request", "client_assertion is required");
    if (ctx.request.headers.has("authorization") || form.has("client_secret"))
      throw new OAuthRequestError("invalid_request", "send client credentials in one way: an assertion or a secret");
    if (grantType !== "client_credentials")
      throw new OAuthRequestError("invalid_request", "a client assertion is accepted with client_credentials");
    const clientId = assertionIssuer(assertion);
    if (!clientId) throw new OAuthRequestError("invalid_client", "client_assertion is not a JWT with an iss");
    if (form.has("client_id") && form.get("client_id") !== clientId)
      throw new OAuthRequestError("invalid_client", "client_id is not the assertion's iss");
    const audience = `${issuerUrlOf(ctx, publicUrl)}/oauth/token`;
    return practice.apiClients.authenticateAssertion(
      clientId,
      (client) => verifyAssertion(client, assertion, audience),
      ctx.remoteAddress,
    );
  }

  async function token(ctx: RouteContext): Promise<Response> {
    let basic = /^Basic\s/i.test(ctx.request.headers.get("authorization") ?? "");
    const challenge = () => (basic ? { "www-authenticate": `Basic realm="${BEARER_REALM}"` } : undefined);
    try {
      const form = await readForm(ctx.request);
      const grantType = form.get("grant_type");
      if (!grantType) throw new OAuthRequestError("invalid_request", "grant_type is required");
      const asserted = form.has("client_assertion") || form.has("client_assertion_type");
      const credentials = asserted ? undefined : clientCredentials(ctx.request, form);
      basic = credentials?.basic ?? false;
      if (!(GRANT_TYPES as readonly string[]).includes(grantType))
        throw new OAuthRequestError("unsupported_grant_type", `grant_type must be one of: ${GRANT_TYPES.join(", ")}`);
      const client = credentials
        ? await practice.apiClients.authenticate(credentials.clientId, credentials.secret, ctx.remoteAddress)
        : await assertedClient(ctx, form, grantType);
      if (grantType === "authorization_code") {
        if (form.has("scope"))
          throw new OAuthRequestError("invalid_request", "scope is not sent with a code: the launch fixed it");
        const issued = await practice.sso.exchange(
          client,
          { code: form.get("code"), redirectUri: form.get("redirect_uri"), codeVerifier: form.get("code_verifier") },
          ctx.requestId,
        );
        return jsonResponse(
          200,
          {
            access_token: await issueSso(issuer, issued),
            token_type: "Bearer",
            expires_in: issued.lifetimeSeconds,
            scope: issued.scopes.join(" "),
          },
          { "cache-control": "no-store", pragma: "no-cache" },
        );
      }
      const scopes = await practice.apiClients.grant(client, form.get("scope") ?? undefined);
      const accessToken = await issue(issuer, client, scopes);
      if (client.organisationId !== PLATFORM_ORGANISATION_ID)
        await practice.audit.record(client.organisationId, {
          actorUserId: client.userId,
          actorName: client.name,
          clientId: client.clientId,
          action: "oauthToken",
          resourceType: "api_client",
          resourceId: String(client.id),
          requestId: ctx.requestId,
          changedFields: [],
        });
      return jsonResponse(
        200,
        {
          access_token: accessToken,
          token_type: "Bearer",
          expires_in: issuer.lifetimeSeconds,
          scope: scopes.join(" "),
        },
        { "cache-control": "no-store", pragma: "no-cache" },
      );
    } catch (error) {
      if (error instanceof OAuthRequestError)
        return error.error === "invalid_client"
          ? oauthError(401, "invalid_client", error.message, challenge())
          : oauthError(400, error.error, error.message);
      if (error instanceof DomainError) {
        if (error.code === "INVALID_CLIENT")
          return oauthError(401, "invalid_client", String(error.details.reason ?? error.message), challenge());
        if (error.code === "INVALID_SCOPE") return oauthError(400, "invalid_scope", error.message);
        if (error.code === "INVALID_GRANT")
          return oauthError(400, String(error.details.error ?? "invalid_grant"), error.message);
        if (error.code === "CLIENT_AUTH_THROTTLED")
          return oauthError(429, "temporarily_unavailable", error.message, {
            "retry-after": String(error.details.retry_after_seconds ?? 60),
          });
      }
      throw error;
    }
  }

  const oauthErrorSchema = replyObject(
    {
      error: oneOfStrings(
        [
          "invalid_request",
          "invalid_client",
          "invalid_grant",
          "unsupported_grant_type",
          "invalid_scope",
          "temporarily_unavailable",
        ],
        "RFC 6749 5.2",
      ),
      error_description: plainText,
    },
    { title: "OAuthError" },
  );
  return [
    {
      ...route({
        method: "POST",
        path: "/oauth/token",
        operationId: "oauthToken",
        summary:
          "OAuth 2.0 token endpoint: client credentials (RFC 6749 4.4; scope narrows the client's scopes) and single sign-on's authorization code with PKCE (RFC 6749 4.1, RFC 7636; docs/sso.md); client_secret_basic, client_secret_post, or private_key_jwt (RFC 7523, SMART Backend Services).",
        requestBody: {
          type: "object",
          required: ["grant_type"],
          properties: {
            grant_type: { type: "string", enum: [...GRANT_TYPES] },
            scope: {
              type: "string",
              description: "client_credentials only. Space-separated; default: every scope of the client",
            },
            code: { type: "string", description: "authorization_code: the launch code (one use, 60 seconds)" },
            redirect_uri: {
              type: "string",
              description: "authorization_code: exactly the redirect_uri of the launch",
            },
            code_verifier: {
              type: "string",
              description: "authorization_code: the PKCE verifier of the launch's code_challenge (RFC 7636)",
            },
            client_id: {
              type: "string",
              description: "client_secret_post (or use HTTP Basic); with an assertion, its iss",
            },
            client_secret: { type: "string" },
            client_assertion_type: {
              type: "string",
              enum: ["urn:ietf:params:oauth:client-assertion-type:jwt-bearer"],
              description: "private_key_jwt (RFC 7523, SMART Backend Services): client_credentials only",
            },
            client_assertion: {
              type: "string",
              description:
                "A JWT signed ES384 or RS384 by a key the client registered: iss and sub the client id, aud this token endpoint's URL, exp at most 5 minutes ahead, a jti used once",
            },
          },
        },
        responses: {
          "200": {
            description: "An access token (Cache-Control: no-store)",
            schema: replyObject(
              {
                access_token: described(plainText, "An ES256 JWT (typ at+jwt)"),
                token_type: oneOfStrings(["Bearer"]),
                expires_in: described(integer, "Seconds"),
                scope: described(plainText, "The scopes granted, space-separated"),
              },
              { title: "OAuthToken" },
            ),
          },
          "400": {
            description:
              "invalid_request, invalid_grant (a code unknown, expired, used before, another client's, or with another redirect_uri or verifier), unsupported_grant_type or invalid_scope (RFC 6749 5.2)",
            schema: oauthErrorSchema,
          },
          "401": {
            description:
              "invalid_client: unknown client, wrong secret, or revoked; an assertion not signed by the client's keys, expired, living over 5 minutes, for another audience, or replayed",
            schema: oauthErrorSchema,
          },
          "429": {
            description: "Too many failed client authentications from this client or address (Retry-After)",
            schema: oauthErrorSchema,
          },
        },
        handle: token,
      }),
      requestContentType: "application/x-www-form-urlencoded",
    },
    route({
      method: "GET",
      path: "/.well-known/oauth-authorization-server",
      operationId: "oauthMetadata",
      summary:
        "Authorization server metadata (RFC 8414): the token endpoint, the JWKS and what they support, for OAuth client libraries.",
      responses: {
        "200": {
          description: "The metadata",
          schema: replyObject(
            {
              issuer: plainText,
              token_endpoint: plainText,
              jwks_uri: plainText,
              grant_types_supported: arrayOf(plainText),
              token_endpoint_auth_methods_supported: arrayOf(plainText),
              token_endpoint_auth_signing_alg_values_supported: arrayOf(plainText),
              response_types_supported: arrayOf(plainText),
              code_challenge_methods_supported: arrayOf(plainText),
              authorization_response_iss_parameter_supported: { type: "boolean" },
            },
            { title: "OAuthServerMetadata" },
          ),
        },
      },
      async handle(ctx) {
        const issuerUrl = issuerUrlOf(ctx, publicUrl);
        return jsonResponse(
          200,
          {
            issuer: issuerUrl,
            token_endpoint: `${issuerUrl}/oauth/token`,
            jwks_uri: `${issuerUrl}/.well-known/jwks.json`,
            grant_types_supported: [...GRANT_TYPES],
            token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "private_key_jwt"],
            token_endpoint_auth_signing_alg_values_supported: [...CLIENT_ASSERTION_ALGORITHMS],
            // Codes come from POST /apis/sso/launch (the app holds the user's token), not an authorization endpoint.
            response_types_supported: [],
            code_challenge_methods_supported: ["S256"],
            authorization_response_iss_parameter_supported: true,
          },
          { "cache-control": "public, max-age=300" },
        );
      },
    }),
    route({
      method: "GET",
      path: "/.well-known/jwks.json",
      operationId: "jwks",
      summary: "The public keys tokens of /oauth/token are signed with (RFC 7517), for services that verify them.",
      responses: {
        "200": {
          description: "A JSON Web Key Set",
          schema: replyObject(
            {
              keys: arrayOf(
                {
                  type: "object",
                  description: "A public EC P-256 key (RFC 7517)",
                  required: ["kty", "crv", "x", "y", "kid", "alg", "use"],
                  properties: {
                    kty: { type: "string", const: "EC" },
                    crv: { type: "string", const: "P-256" },
                    x: plainText,
                    y: plainText,
                    kid: plainText,
                    alg: { type: "string", const: "ES256" },
                    use: { type: "string", const: "sig" },
                  },
                },
                "Every stored key: the newest signs, older ones verify tokens still alive",
              ),
            },
            { title: "JsonWebKeySet" },
          ),
        },
      },
      async handle() {
        return jsonResponse(200, issuer.jwks(), { "cache-control": "public, max-age=300" });
      },
    }),
  ];
}
