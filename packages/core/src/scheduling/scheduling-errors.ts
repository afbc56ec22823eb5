import { errorsOf } from "../kernel/domain-error.js";

/** Errors of working hours, blocks, slots and v2 bookings. Codes are public: never renamed or reused. */
export const SCHEDULING_ERROR_CODES = [
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
] as const;

/** Throws one of the codes above (and only those). */
export const schedulingError = errorsOf(SCHEDULING_ERROR_CODES);
