import { eventsOf } from "../kernel/events.js";

const NOTE_FIELDS = ["organisation_id", "soap_note_id", "patient_id", "appointment_id", "service_case_id"] as const;

/** SOAP note events: a note was created, and a note was completed and signed. */
export const SOAP_EVENTS = {
  "soap_note.created": { fields: NOTE_FIELDS, description: "A SOAP note was created." },
  "soap_note.completed": {
    fields: NOTE_FIELDS,
    description: "A SOAP note was completed (signed; PDF, billing and plan of care follow).",
  },
} as const;

/** Builds one of the events above, with exactly its payload fields. */
export const soapEvent = eventsOf(SOAP_EVENTS);
