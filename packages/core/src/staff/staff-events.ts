import { eventsOf } from "../kernel/events.js";

/** The staff registry's events: spec 6.1, identifiers only. */
export const STAFF_EVENTS = {
  "staff.created": { fields: ["organisation_id", "staff_id"], description: "A staff member was added." },
  "staff.updated": {
    fields: ["organisation_id", "staff_id"],
    description: "A staff member's record changed (or they were reactivated).",
  },
  "staff.deactivated": {
    fields: ["organisation_id", "staff_id"],
    description: "A staff member was deactivated (DELETE); the record stays.",
  },
} as const;

/** Builds one of the events above, with exactly its payload fields. */
export const staffEvent = eventsOf(STAFF_EVENTS);
