import { defineHttpModule } from "../http-module.js";
import type { RouteDependencies } from "../route.js";
import { clearinghouseRoutes } from "./clearinghouse-routes.js";
import { eligibilityRoutes } from "./eligibility-routes.js";

/** Eligibility: the real-time check on v2, history and manual capture on v1 (spec 9). */
export const eligibilityHttpModule = defineHttpModule({
  key: "eligibility",
  routes: (deps: RouteDependencies) => [...eligibilityRoutes(deps), ...clearinghouseRoutes(deps)],
  v1Codes: {
    ELIGIBILITY_NOT_CONFIGURED: { code: 4075, status: 409 },
    ELIGIBILITY_REJECTED: { code: 4221, status: 422 },
    ELIGIBILITY_TIMEOUT: { code: 5040, status: 504 },
    ELIGIBILITY_UNAVAILABLE: { code: 5020, status: 502 },
    ELIGIBILITY_INVALID_RESPONSE: { code: 5021, status: 502 },
    CLEARINGHOUSE_NOT_SET: { code: 4072, status: 404 },
  },
  v2Status: {
    ELIGIBILITY_NOT_CONFIGURED: 409,
    ELIGIBILITY_REJECTED: 422,
    ELIGIBILITY_TIMEOUT: 504,
    ELIGIBILITY_UNAVAILABLE: 502,
    ELIGIBILITY_INVALID_RESPONSE: 502,
    CLEARINGHOUSE_NOT_SET: 404,
  },
});
