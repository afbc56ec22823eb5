import { defineCoreModule, type ModuleDependencies, owns } from "../kernel/module.js";
import type { BlockRepository } from "./block-repository.js";
import type { ScheduleRepository } from "./schedule-repository.js";
import type { SchedulingServiceRepositories } from "./scheduling-service-repositories.js";
import { SCHEDULING_ERROR_CODES } from "./scheduling-errors.js";
import { BlockService } from "./block-service.js";
import { BlockSeriesService } from "./block-series-service.js";
import { SchedulingBookingService } from "./booking-service.js";
import { ScheduleService } from "./schedule-service.js";
import { SlotService } from "./slot-service.js";

/** Providers' working hours and blocks, and the bookable slots they leave (spec 4.7 scheduling). */
export const schedulingModule = defineCoreModule({
  key: "scheduling",
  repositories: owns<{ schedules: ScheduleRepository; blocks: BlockRepository }>(),
  createServices: ({ storage, clock }: ModuleDependencies<SchedulingServiceRepositories>) => ({
    schedules: new ScheduleService({ storage, clock }),
    blocks: new BlockService({ storage, clock }),
    blockSeries: new BlockSeriesService({ storage, clock }),
    slots: new SlotService({ storage, clock }),
    bookings: new SchedulingBookingService({ storage, clock }),
  }),
  errorCodes: SCHEDULING_ERROR_CODES,
  events: {} as const,
});
