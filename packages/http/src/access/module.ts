import { defineHttpModule } from "../http-module.js";
import type { RouteDependencies } from "../route.js";
import { oauthRoutes } from "./oauth-routes.js";
import { v2ApiClientRoutes } from "./v2-api-client-routes.js";
import { v2OrganisationRoutes } from "./v2-organisation-routes.js";

/** Organisations, API clients and the OAuth token endpoint. v2 and system routes; v1 codes exist because every code has one. */
export const accessHttpModule = defineHttpModule({
  key: "access",
  routes: (deps: RouteDependencies) => [
    ...oauthRoutes(deps),
    ...v2ApiClientRoutes(deps),
    ...v2OrganisationRoutes(deps),
  ],
  v1Codes: {
    ORGANISATION_NOT_FOUND: { code: 4063, status: 404 },
    ORGANISATION_DEACTIVATED: { code: 4032, status: 403 },
    API_CLIENT_NOT_FOUND: { code: 4064, status: 404 },
    DUPLICATE_API_CLIENT: { code: 4082, status: 409 },
    INVALID_CLIENT: { code: 4011, status: 401 },
    INVALID_SCOPE: { code: 4009, status: 400 },
    CLIENT_AUTH_THROTTLED: { code: 4291, status: 429 },
  },
  v2Status: {
    ORGANISATION_NOT_FOUND: 404,
    ORGANISATION_DEACTIVATED: 403,
    API_CLIENT_NOT_FOUND: 404,
    DUPLICATE_API_CLIENT: 409,
    INVALID_CLIENT: 401,
    INVALID_SCOPE: 400,
    CLIENT_AUTH_THROTTLED: 429,
  },
});
