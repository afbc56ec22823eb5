import { eventsOf } from "../kernel/events.js";

const CASE_FIELDS = ["organisation_id", "service_case_id", "patient_id", "clinic_id"] as const;

/** Case events: spec 6.1, identifiers only. */
export const CASE_EVENTS = {
  "case.created": { fields: CASE_FIELDS, description: "A case was opened." },
  "case.updated": { fields: CASE_FIELDS, description: "A case changed (other than a discharge)." },
  "case.discharged": { fields: CASE_FIELDS, description: "A case's treatment_status became DISCHARGED." },
} as const;

const AUTHORIZATION_FIELDS = ["organisation_id", "service_case_id", "patient_id", "authorization_id"] as const;

/** Authorization events (v1 and v2 writes alike), identifiers only. */
export const AUTHORIZATION_EVENTS = {
  "authorization.created": { fields: AUTHORIZATION_FIELDS, description: "An authorization was added to a case." },
  "authorization.updated": { fields: AUTHORIZATION_FIELDS, description: "An authorization changed." },
  "authorization.deleted": { fields: AUTHORIZATION_FIELDS, description: "An authorization was deleted." },
} as const;

/** Builds one of the case and authorization events above, with exactly its payload fields. */
export const caseEvent = eventsOf({ ...CASE_EVENTS, ...AUTHORIZATION_EVENTS });
