import { defineHttpModule } from "../http-module.js";
import { v1BillingRoutes } from "./v1-billing-routes.js";
import { v1FeeScheduleRoutes } from "./v1-fee-schedule-routes.js";

/** The billing code catalogue and the fee schedule (v1). */
export const billingHttpModule = defineHttpModule({
  key: "billing",
  routes: (deps) => [...v1BillingRoutes(deps), ...v1FeeScheduleRoutes(deps)],
  v1Codes: {},
  v2Status: {},
});
