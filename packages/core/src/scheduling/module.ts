import { defineCoreModule } from "../modules/core-module.js";
import { BlockService } from "./block-service.js";
import { ScheduleService } from "./schedule-service.js";
import { SlotService } from "./slot-service.js";

/** Providers' working hours and blocks, and the bookable slots they leave (spec 4.7 scheduling). */
export const schedulingModule = defineCoreModule({
  key: "scheduling",
  createServices: ({ storage, clock }) => ({
    schedules: new ScheduleService({ storage, clock }),
    blocks: new BlockService({ storage, clock }),
    slots: new SlotService({ storage, clock }),
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
  ] as const,
  events: {} as const,
});
