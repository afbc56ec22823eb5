import { defineHttpModule } from "../http-module.js";
import { v2CatalogRoutes } from "./v2-catalog-routes.js";

/** Appointment types (spec 4.7) and cancellation reasons on v2, with their administration. */
export const catalogHttpModule = defineHttpModule({
  key: "catalog",
  routes: v2CatalogRoutes,
  v1Codes: {
    APPOINTMENT_TYPE_NOT_FOUND: { code: 4060, status: 404 },
    DUPLICATE_APPOINTMENT_TYPE: { code: 4085, status: 409 },
    CANCELLATION_REASON_NOT_FOUND: { code: 4061, status: 404 },
    DUPLICATE_CANCELLATION_REASON: { code: 4084, status: 409 },
  },
  v2Status: {
    APPOINTMENT_TYPE_NOT_FOUND: 404,
    DUPLICATE_APPOINTMENT_TYPE: 409,
    CANCELLATION_REASON_NOT_FOUND: 404,
    DUPLICATE_CANCELLATION_REASON: 409,
  },
});
