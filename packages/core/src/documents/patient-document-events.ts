import { eventsOf } from "../kernel/events.js";

/** Patient documents' events: identifiers only (spec 6.1), never titles, names or content. */
export const DOCUMENT_EVENTS = {
  "patient_document.created": {
    fields: ["organisation_id", "document_id", "patient_id"],
    description:
      "A document was added to a patient's chart: an upload (its malware scan may still be pending) or a SOAP note's rendered summary (category visit_summary).",
  },
  "patient_document.deleted": {
    fields: ["organisation_id", "document_id", "patient_id"],
    description: "A patient document was deleted (soft: kept for the organisation's retention period, then purged).",
  },
} as const;

/** Builds one of the events above, with exactly its payload fields. */
export const documentEvent = eventsOf(DOCUMENT_EVENTS);
