import { defineHttpModule } from "../http-module.js";
import { v1AppointmentRoutes } from "./v1-appointment-routes.js";
import { v1CatalogRoutes } from "./v1-catalog-routes.js";
import { v2AppointmentRoutes } from "./v2-appointment-routes.js";

/** Appointments and the organisation directory they book against (clinics, doctors, categories, cancellation reasons). */
export const appointmentsHttpModule = defineHttpModule({
  key: "appointments",
  routes: (deps) => [...v1AppointmentRoutes(deps), ...v1CatalogRoutes(deps), ...v2AppointmentRoutes(deps)],
  v1Codes: {
    APPOINTMENT_NOT_FOUND: { code: 4004, status: 404 },
    SCHEDULE_CONFLICT: { code: 4091, status: 409 },
    APPOINTMENT_CANCELLED: { code: 4001, status: 409 },
    CLINIC_NOT_FOUND: { code: 4041, status: 400 },
  },
  v2Status: {
    APPOINTMENT_NOT_FOUND: 404,
    SCHEDULE_CONFLICT: 409,
    APPOINTMENT_CANCELLED: 409,
    CLINIC_NOT_FOUND: 404,
  },
});
