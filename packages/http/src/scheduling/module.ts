import { defineHttpModule } from "../http-module.js";
import type { RouteDependencies } from "../route.js";
import { v1BlockRoutes } from "./v1-block-routes.js";
import { v2BlockRoutes } from "./v2-block-routes.js";
import { v2ScheduleRoutes } from "./v2-schedule-routes.js";
import { v2SlotRoutes } from "./v2-slot-routes.js";

/** Providers' working hours, blocks and bookable slots (spec 4.7), and v1's blocks with series edits (spec 9.4). */
export const schedulingHttpModule = defineHttpModule({
  key: "scheduling",
  routes: (deps: RouteDependencies) => [
    ...v2ScheduleRoutes(deps),
    ...v2BlockRoutes(deps),
    ...v2SlotRoutes(deps),
    ...v1BlockRoutes(deps),
  ],
  v1Codes: {
    SCHEDULE_NOT_FOUND: { code: 4065, status: 404 },
    SCHEDULE_OVERLAP: { code: 4089, status: 409 },
    SCHEDULE_ALREADY_REPLACED: { code: 4081, status: 409 },
    BLOCK_NOT_FOUND: { code: 4066, status: 404 },
    SLOT_UNAVAILABLE: { code: 4079, status: 409 },
    OUTSIDE_WORKING_HOURS: { code: 4078, status: 409 },
  },
  v2Status: {
    SCHEDULE_NOT_FOUND: 404,
    SCHEDULE_OVERLAP: 409,
    SCHEDULE_ALREADY_REPLACED: 409,
    BLOCK_NOT_FOUND: 404,
    SLOT_UNAVAILABLE: 409,
    OUTSIDE_WORKING_HOURS: 409,
  },
});
