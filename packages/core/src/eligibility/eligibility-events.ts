import { eventsOf } from "../kernel/events.js";

/** Eligibility's events: spec 6.1, identifiers only. */
export const ELIGIBILITY_EVENTS = {
  "coverage.eligibility_checked": {
    fields: ["organisation_id", "patient_id", "coverage_id", "eligibility_check_id"],
    description: "A coverage's eligibility was checked (real-time, whatever the outcome) or recorded by hand.",
  },
} as const;

/** Builds one of the events above, with exactly its payload fields. */
export const eligibilityEvent = eventsOf(ELIGIBILITY_EVENTS);
