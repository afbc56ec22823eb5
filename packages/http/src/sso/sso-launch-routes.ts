import { DomainError, SSO_LIMITS } from "@openpractice/core";
import { issuerUrlOf } from "../access/issuer-url.js";
import { jsonResponse } from "../contracts/json-response.js";
import { routeGroup } from "../define-route.js";
import { described, integer, oneOfStrings, plainText, replyObject } from "../openapi/reply-schemas.js";
import type { RouteDefinition, RouteDependencies } from "../route.js";

const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" };

/** The body's shape for the OpenAPI document; core checks each value and names the parameter at fault. */
const launchBody = {
  $id: "SsoLaunch",
  type: "object",
  additionalProperties: false,
  properties: {
    client_id: { type: "string", maxLength: 100, description: "The web app's API client (POST /v2/api-clients)" },
    redirect_uri: {
      type: "string",
      maxLength: 2000,
      description: "One of the client's redirect_uris, exactly as registered",
    },
    code_challenge: {
      type: "string",
      maxLength: 43,
      description: "BASE64URL(SHA-256(code_verifier)) (RFC 7636 4.2); the web app keeps the verifier",
    },
    code_challenge_method: { type: "string", enum: ["S256"] },
    state: {
      type: "string",
      maxLength: SSO_LIMITS.stateMax,
      description: "Echoed in the URL for the web app to match its request (RFC 6749 10.12)",
    },
  },
} as const;

/** The OAuth error answer of a refused launch (RFC 6749 4.1.2.1: never sent to the redirect URI). */
const refusal = (error: string, description: string) =>
  jsonResponse(400, { error, error_description: description }, NO_STORE);

/** POST /apis/sso/launch: the mobile app opens the web app with the user signed in (docs/sso.md). */
export function ssoLaunchRoutes({ practice, tokenIssuer, publicUrl }: RouteDependencies): RouteDefinition[] {
  // Without a token issuer no code could be exchanged: the launch is not served either.
  if (!tokenIssuer) return [];
  // Each launch stores a row for a day: it counts against the organisation's plan budget like any v2 call.
  const route = routeGroup({ contract: "system", tags: ["Single sign-on"], auth: true, rateLimitBucket: "v2" });
  return [
    route({
      method: "POST",
      path: "/apis/sso/launch",
      operationId: "ssoLaunch",
      summary:
        "App-to-web single sign-on: a URL of the organisation's web app carrying a one-time code (60 s, PKCE S256) that its client exchanges at POST /oauth/token for a token of this user.",
      auditResource: "api_client",
      auditNamesCreated: true,
      requestBody: launchBody,
      responses: {
        "200": {
          description: "The URL to open (Cache-Control: no-store): the redirect URI with code, state and iss",
          schema: replyObject(
            {
              url: described(plainText, "redirect_uri?code=…&state=…&iss=… (RFC 9207)"),
              expires_in: described(integer, "Seconds the code stays valid: 60"),
            },
            { title: "SsoLaunchUrl" },
          ),
        },
        "400": {
          description:
            "invalid_request (the parameter named; an unregistered redirect_uri, an unknown client, a token without a user) or invalid_scope; nothing stored",
          schema: replyObject(
            { error: oneOfStrings(["invalid_request", "invalid_scope"]), error_description: plainText },
            { title: "SsoLaunchError" },
          ),
        },
      },
      async handle(ctx) {
        try {
          const b = await ctx.body();
          const launched = await practice.sso.launch(
            ctx.principal,
            {
              clientId: b.client_id,
              redirectUri: b.redirect_uri,
              codeChallenge: b.code_challenge,
              codeChallengeMethod: b.code_challenge_method,
              state: b.state,
            },
            issuerUrlOf(ctx, publicUrl),
          );
          return jsonResponse(200, { url: launched.url, expires_in: launched.expiresInSeconds }, NO_STORE);
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          if (error.code === "SSO_LAUNCH_REFUSED") return refusal(String(error.details.error), error.message);
          if (error.code === "VALIDATION_FAILED" || error.code === "MALFORMED_JSON")
            return refusal("invalid_request", error.message);
          throw error;
        }
      },
    }),
  ];
}
