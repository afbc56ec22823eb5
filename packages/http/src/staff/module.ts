import { defineHttpModule } from "../http-module.js";
import { v2StaffRoutes } from "./v2-staff-routes.js";

/** Staff (spec 4.7); v2 only. The v1 codes exist because every code has one; no v1 route answers them. */
export const staffHttpModule = defineHttpModule({
  key: "staff",
  routes: v2StaffRoutes,
  v1Codes: {
    STAFF_NOT_FOUND: { code: 4058, status: 404 },
    DUPLICATE_STAFF_EMAIL: { code: 4088, status: 409 },
  },
  v2Status: {
    STAFF_NOT_FOUND: 404,
    DUPLICATE_STAFF_EMAIL: 409,
  },
});
