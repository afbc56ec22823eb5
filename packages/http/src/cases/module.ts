import { defineHttpModule } from "../http-module.js";
import { v1CaseRoutes } from "./v1-case-routes.js";
import { v1AuthorizationRoutes } from "./v1-authorization-routes.js";
import { v2AuthorizationRoutes } from "./v2-authorization-routes.js";
import { v2CaseRoutes } from "./v2-case-routes.js";
import { v2ReferringPhysicianRoutes } from "./v2-referring-physician-routes.js";

/** Cases, referring physicians and authorizations, on v1 and v2. */
export const casesHttpModule = defineHttpModule({
  key: "cases",
  routes: (deps) => [
    ...v1CaseRoutes(deps),
    ...v1AuthorizationRoutes(deps),
    ...v2CaseRoutes(deps),
    ...v2AuthorizationRoutes(deps),
    ...v2ReferringPhysicianRoutes(deps),
  ],
  v1Codes: {
    CASE_NOT_FOUND: { code: 4043, status: 404 },
    REFERRING_PHYSICIAN_NOT_FOUND: { code: 4044, status: 404 },
    AUTHORIZATION_NOT_FOUND: { code: 4045, status: 404 },
    DUPLICATE_REFERRING_PHYSICIAN: { code: 4095, status: 409 },
    VISIT_LIMIT_REACHED: { code: 4093, status: 409 },
    NO_VALID_AUTHORIZATION: { code: 4094, status: 409 },
  },
  v2Status: {
    CASE_NOT_FOUND: 404,
    REFERRING_PHYSICIAN_NOT_FOUND: 404,
    AUTHORIZATION_NOT_FOUND: 404,
    DUPLICATE_REFERRING_PHYSICIAN: 409,
    VISIT_LIMIT_REACHED: 409,
    NO_VALID_AUTHORIZATION: 409,
  },
});
