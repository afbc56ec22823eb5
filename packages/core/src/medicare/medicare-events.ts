import { eventsOf } from "../kernel/events.js";

/** Medicare outpatient therapy events (docs/medicare-therapy.md). */
export const MEDICARE_EVENTS = {
  "medicare.review_threshold_reached": {
    fields: ["organisation_id", "patient_id", "soap_note_id", "year", "bucket", "incurred_cents", "threshold_cents"],
    description:
      "A completed visit, or an amount recorded as incurred elsewhere (soap_note_id null), took a Medicare Part B beneficiary's year past the $3,000 targeted medical review threshold of a bucket (PT_SLP or OT).",
  },
} as const;

export const medicareEvent = eventsOf(MEDICARE_EVENTS);
