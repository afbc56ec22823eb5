import { defineHttpModule } from "../http-module.js";
import { v2ProviderRoutes } from "./v2-provider-routes.js";

/** The v2 provider directory (spec 4.7); v1's provider list and booking read the same providers. */
export const providersHttpModule = defineHttpModule({
  key: "providers",
  routes: v2ProviderRoutes,
  v1Codes: {
    PROVIDER_NOT_FOUND: { code: 4059, status: 404 },
    DUPLICATE_PROVIDER: { code: 4086, status: 409 },
  },
  v2Status: { PROVIDER_NOT_FOUND: 404, DUPLICATE_PROVIDER: 409 },
});
