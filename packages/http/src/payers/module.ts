import { defineHttpModule } from "../http-module.js";
import { v2PayerRoutes } from "./v2-payer-routes.js";

/** The payer registry (spec 4.7) and organisations' own payers. */
export const payersHttpModule = defineHttpModule({
  key: "payers",
  routes: v2PayerRoutes,
  v1Codes: {
    PAYER_NOT_FOUND: { code: 4062, status: 404 },
    DUPLICATE_PAYER: { code: 4083, status: 409 },
  },
  v2Status: { PAYER_NOT_FOUND: 404, DUPLICATE_PAYER: 409 },
});
