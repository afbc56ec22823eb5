import { CLIENT_ASSERTION_ALGORITHMS } from "@openpractice/core";
import { issuerUrlOf } from "../access/issuer-url.js";
import { jsonResponse } from "../contracts/json-response.js";
import { routeGroup } from "../define-route.js";
import { arrayOf, plainText, replyObject } from "../openapi/reply-schemas.js";
import type { RouteDefinition } from "../route.js";
import type { FhirResourceType } from "./fhir-resource-type.js";

/**
 * The SMART v2 system scopes that read a type (SMART App Launch 2.x, scopes-and-launch-context): `.rs` (read and
 * search) and the v1 `.read`, for the type and for every type (`*`). They sit beside the type's module scopes.
 */
export const smartReadScopes = (type: string) => [
  `system/${type}.rs`,
  `system/${type}.read`,
  "system/*.rs",
  "system/*.read",
];

/** The SMART v2 system scopes a backend service may be granted: read and search, per type and for every type. */
export function smartScopesOf(types: readonly FhirResourceType[]): string[] {
  return [...new Set(types.flatMap((t) => smartReadScopes(t.type)))];
}

/**
 * GET /.well-known/smart-configuration (SMART App Launch 2.x, conformance.html): what a SMART backend service needs
 * to authenticate here: the token endpoint, private_key_jwt with ES384 or RS384, client_credentials, the system
 * scopes. No authorization endpoint: there is no user-facing launch (single sign-on is app-to-web, docs/sso.md).
 */
export function smartConfigurationRoute(
  types: readonly FhirResourceType[],
  publicUrl: string | undefined,
): RouteDefinition {
  const route = routeGroup({ contract: "system", tags: ["FHIR R4"], auth: false });
  return route({
    method: "GET",
    path: "/.well-known/smart-configuration",
    operationId: "smartConfiguration",
    summary:
      "SMART configuration: the token endpoint, private_key_jwt (ES384, RS384), client_credentials and the system scopes of SMART Backend Services.",
    responses: {
      "200": {
        description: "The SMART configuration (Cache-Control: public, 5 minutes)",
        schema: replyObject(
          {
            issuer: plainText,
            jwks_uri: plainText,
            token_endpoint: plainText,
            token_endpoint_auth_methods_supported: arrayOf(plainText),
            token_endpoint_auth_signing_alg_values_supported: arrayOf(plainText),
            grant_types_supported: arrayOf(plainText),
            scopes_supported: arrayOf(plainText),
            response_types_supported: arrayOf(plainText),
            capabilities: arrayOf(plainText),
            code_challenge_methods_supported: arrayOf(plainText),
          },
          { title: "SmartConfiguration" },
        ),
      },
    },
    async handle(ctx) {
      const issuer = issuerUrlOf(ctx, publicUrl);
      return jsonResponse(
        200,
        {
          issuer,
          jwks_uri: `${issuer}/.well-known/jwks.json`,
          token_endpoint: `${issuer}/oauth/token`,
          token_endpoint_auth_methods_supported: ["private_key_jwt", "client_secret_basic", "client_secret_post"],
          token_endpoint_auth_signing_alg_values_supported: [...CLIENT_ASSERTION_ALGORITHMS],
          grant_types_supported: ["client_credentials"],
          scopes_supported: smartScopesOf(types),
          response_types_supported: [],
          capabilities: ["client-confidential-asymmetric", "permission-v2", "permission-v1"],
          code_challenge_methods_supported: ["S256"],
        },
        { "cache-control": "public, max-age=300" },
      );
    },
  });
}
