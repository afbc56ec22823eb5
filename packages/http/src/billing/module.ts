import { defineHttpModule } from "../http-module.js";
import { v1BillingRoutes } from "./v1-billing-routes.js";

/** The billing code catalogue (v1). */
export const billingHttpModule = defineHttpModule({
  key: "billing",
  routes: (deps) => [...v1BillingRoutes(deps)],
  v1Codes: {},
  v2Status: {},
});
