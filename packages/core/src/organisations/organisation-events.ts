import { eventsOf } from "../kernel/events.js";

/** The directory's events: spec 6.1, identifiers only. */
export const ORGANISATION_EVENTS = {
  "clinic.created": { fields: ["organisation_id", "clinic_id"], description: "A clinic was added." },
  "clinic.updated": {
    fields: ["organisation_id", "clinic_id"],
    description: "A clinic's details or settings changed (or it was deactivated or reactivated).",
  },
  "provider.created": { fields: ["organisation_id", "provider_id"], description: "A provider was added." },
  "provider.updated": {
    fields: ["organisation_id", "provider_id"],
    description: "A provider's record changed (or they were deactivated or reactivated).",
  },
} as const;

/** Builds one of the events above, with exactly its payload fields. */
export const organisationEvent = eventsOf(ORGANISATION_EVENTS);
