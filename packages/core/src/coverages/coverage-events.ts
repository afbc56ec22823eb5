import { eventsOf } from "../kernel/events.js";

const COVERAGE_FIELDS = ["organisation_id", "patient_id", "coverage_id"] as const;

/** Coverages' events: spec 6.1, identifiers only. */
export const COVERAGE_EVENTS = {
  "coverage.created": { fields: COVERAGE_FIELDS, description: "A coverage (insurance card) was added to a patient." },
  "coverage.updated": { fields: COVERAGE_FIELDS, description: "A coverage changed." },
  "coverage.deleted": { fields: COVERAGE_FIELDS, description: "A coverage was deleted." },
} as const;

/** Builds one of the events above, with exactly its payload fields. */
export const coverageEvent = eventsOf(COVERAGE_EVENTS);
