import { defineHttpModule } from "../http-module.js";
import { v2WaitlistRoutes } from "./v2-waitlist-routes.js";

/** The waitlist (spec 4.7), v2 only. The v1 codes exist because every code has one. */
export const waitlistHttpModule = defineHttpModule({
  key: "waitlist",
  routes: v2WaitlistRoutes,
  v1Codes: {
    WAITLIST_REQUEST_NOT_FOUND: { code: 4067, status: 404 },
    WAITLIST_OFFER_EXPIRED: { code: 4077, status: 409 },
  },
  v2Status: { WAITLIST_REQUEST_NOT_FOUND: 404, WAITLIST_OFFER_EXPIRED: 409 },
});
