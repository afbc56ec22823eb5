import { defineHttpModule } from "../http-module.js";
import { v1DoctorRoutes } from "./v1-doctor-routes.js";
import { v2ProviderRoutes } from "./v2-provider-routes.js";

/** The provider directory: v2 providers and v1 doctors (spec 4.7), one set of records; v1 booking reads them too. */
export const providersHttpModule = defineHttpModule({
  key: "providers",
  routes: (deps) => [...v2ProviderRoutes(deps), ...v1DoctorRoutes(deps)],
  v1Codes: {
    PROVIDER_NOT_FOUND: { code: 4059, status: 404 },
    DUPLICATE_PROVIDER: { code: 4086, status: 409 },
  },
  v2Status: { PROVIDER_NOT_FOUND: 404, DUPLICATE_PROVIDER: 409 },
});
