import { defineHttpModule } from "../http-module.js";
import { v2ScheduleRoutes } from "./v2-schedule-routes.js";

/** Providers' working hours (spec 4.7); v2 only. The v1 codes exist because every code has one. */
export const schedulingHttpModule = defineHttpModule({
  key: "scheduling",
  routes: v2ScheduleRoutes,
  v1Codes: {
    SCHEDULE_NOT_FOUND: { code: 4065, status: 404 },
    SCHEDULE_OVERLAP: { code: 4089, status: 409 },
    SCHEDULE_ALREADY_REPLACED: { code: 4081, status: 409 },
  },
  v2Status: { SCHEDULE_NOT_FOUND: 404, SCHEDULE_OVERLAP: 409, SCHEDULE_ALREADY_REPLACED: 409 },
});
