import { eventsOf } from "../kernel/events.js";

/** The waitlist's events: spec 6.1, identifiers only. */
export const WAITLIST_EVENTS = {
  "waitlist.offer_created": {
    fields: ["organisation_id", "waitlist_request_id", "waitlist_offer_id", "patient_id", "provider_id", "clinic_id"],
    description: "A freed slot was offered to a waitlist request and is held for it until accepted or expired.",
  },
} as const;

/** Builds one of the events above, with exactly its payload fields. */
export const waitlistEvent = eventsOf(WAITLIST_EVENTS);
