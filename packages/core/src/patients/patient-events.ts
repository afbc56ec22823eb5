import { eventsOf } from "../kernel/events.js";

/** The patient registry's events: spec 6.1, identifiers only. */
export const PATIENT_EVENTS = {
  "patient.created": { fields: ["organisation_id", "patient_id"], description: "A patient was registered." },
  "patient.updated": { fields: ["organisation_id", "patient_id"], description: "A patient's record changed." },
} as const;

/** Builds one of the events above, with exactly its payload fields. */
export const patientEvent = eventsOf(PATIENT_EVENTS);
