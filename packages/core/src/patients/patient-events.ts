/** The patient registry's events: spec 6.1, identifiers only. */
export const PATIENT_EVENTS = {
  "patient.created": { fields: ["organisation_id", "patient_id"], description: "A patient was registered." },
  "patient.updated": { fields: ["organisation_id", "patient_id"], description: "A patient's record changed." },
} as const;
