import { defineHttpModule } from "../http-module.js";
import type { RouteDependencies } from "../route.js";
import { ssoLaunchRoutes } from "./sso-launch-routes.js";

/**
 * App-to-web single sign-on (spec 9.4): the launch; the code's exchange is a grant of the token endpoint (access).
 * Its errors answer in OAuth's shape; the v1 codes exist because every code has one.
 */
export const ssoHttpModule = defineHttpModule({
  key: "sso",
  routes: (deps: RouteDependencies) => ssoLaunchRoutes(deps),
  v1Codes: {
    SSO_LAUNCH_REFUSED: { code: 4015, status: 400 },
    INVALID_GRANT: { code: 4014, status: 400 },
  },
  v2Status: {
    SSO_LAUNCH_REFUSED: 400,
    INVALID_GRANT: 400,
  },
});
