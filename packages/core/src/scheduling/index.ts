export { bookableSlots, mergeIntervals, type SlotQuery, slotText } from "./slots.js";
export {
  firstOverlap,
  type Interval,
  occurrences,
  type Shift,
  shiftIssues,
  WEEKDAYS,
  type Weekday,
} from "./shift.js";
export * from "./provider-schedule.js";
export { ScheduleService } from "./schedule-service.js";
export * from "./provider-block.js";
export { BlockService } from "./block-service.js";
export {
  blockOccurrences,
  occurrenceOn,
  seriesOccurrences,
  type SeriesOccurrence,
  splitSeries,
} from "./block-series.js";
export {
  BLOCK_EDIT_SCOPES,
  type BlockEdit,
  type BlockEditResult,
  type BlockEditScope,
  BlockSeriesService,
} from "./block-series-service.js";
export { type ProviderSlots, SLOT_LIMITS, type SlotQuery as SlotSearch, SlotService } from "./slot-service.js";
export {
  SchedulingBookingService,
  type SchedulingBookingRequest,
  WORKING_HOURS_OVERRIDE_SCOPES,
} from "./booking-service.js";
export {
  heldProblem,
  insideWorkingHours,
  type PlacementProblem,
  slotProblem,
  slotStillFree,
  workingHoursProblem,
} from "./placement.js";
