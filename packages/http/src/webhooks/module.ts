import { defineHttpModule } from "../http-module.js";
import { webhookRoutes } from "./webhook-routes.js";

/** Webhook subscriptions, deliveries and the event catalog. */
export const webhooksHttpModule = defineHttpModule({
  key: "webhooks",
  routes: (deps) => [...webhookRoutes(deps)],
  v1Codes: {
    INVALID_API_VERSION: { code: 4007, status: 400 },
    CANNOT_REMOVE_ALL_EVENTS: { code: 4008, status: 400 },
    DUPLICATE_SUBSCRIPTION: { code: 4096, status: 409 },
    SUBSCRIPTION_NOT_FOUND: { code: 4046, status: 404 },
    DELIVERY_NOT_FOUND: { code: 4047, status: 404 },
  },
  v2Status: {
    INVALID_API_VERSION: 400,
    CANNOT_REMOVE_ALL_EVENTS: 400,
    DUPLICATE_SUBSCRIPTION: 409,
    SUBSCRIPTION_NOT_FOUND: 404,
    DELIVERY_NOT_FOUND: 404,
  },
});
