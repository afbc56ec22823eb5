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
