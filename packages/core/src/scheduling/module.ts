import { defineCoreModule } from "../modules/core-module.js";
import { BlockService } from "./block-service.js";
import { SchedulingBookingService } from "./booking-service.js";
import { ScheduleService } from "./schedule-service.js";
import { SlotService } from "./slot-service.js";

/** Providers' working hours and blocks, and the bookable slots they leave (spec 4.7 scheduling). */
export const schedulingModule = defineCoreModule({
  key: "scheduling",
  createServices: ({ storage, clock }) => ({
    schedules: new ScheduleService({ storage, clock }),
    blocks: new BlockService({ storage, clock }),
    slots: new SlotService({ storage, clock }),
    bookings: new SchedulingBookingService({ storage, clock }),
  }),
  // Codes are public: never renamed or reused.
  errorCodes: [
    /** The schedule does not exist in the caller's organisation, or is another provider's. */
    "SCHEDULE_NOT_FOUND",
    /** The shift would overlap another shift of the provider (details.conflicting_schedule_id, overlap_start). */
    "SCHEDULE_OVERLAP",
    /** A new version names a schedule that another version replaced already (details.replaced_by_schedule_id). */
    "SCHEDULE_ALREADY_REPLACED",
    /** The block does not exist in the caller's organisation, or was removed. */
    "BLOCK_NOT_FOUND",
    /** A booking named a slot that is no longer bookable (details.reason: taken, blocked, outside_working_hours, no_working_hours, past). */
    "SLOT_UNAVAILABLE",
    /** A booking at a time outside the provider's working hours or inside a block, by a caller without an override scope (details.reason). */
    "OUTSIDE_WORKING_HOURS",
  ] as const,
  events: {} as const,
});
