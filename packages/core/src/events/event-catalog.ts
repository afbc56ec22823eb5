/**
 * Event types the core emits, with the exact identifier fields each payload may
 * carry (spec 6.1: identifiers only, organisation_id always, no status and no
 * patient health information). Modules add their families here as they land.
 */
export const EVENT_PAYLOAD_FIELDS = {
  "patient.created": ["organisation_id", "patient_id"],
  "patient.updated": ["organisation_id", "patient_id"],
  "appointment.created": ["organisation_id", "appointment_id", "patient_id", "service_case_id", "clinic_id"],
  "appointment.updated": ["organisation_id", "appointment_id", "patient_id", "service_case_id", "clinic_id"],
  "appointment.cancelled": ["organisation_id", "appointment_id", "patient_id", "service_case_id", "clinic_id"],
  "case.created": ["organisation_id", "service_case_id", "patient_id", "clinic_id"],
  "case.updated": ["organisation_id", "service_case_id", "patient_id", "clinic_id"],
  "case.discharged": ["organisation_id", "service_case_id", "patient_id", "clinic_id"],
  // SOAP note events (the notes module emits them): a note was created, and a note was completed and signed.
  "soap_note.created": ["organisation_id", "soap_note_id", "patient_id", "appointment_id", "service_case_id"],
  "soap_note.completed": ["organisation_id", "soap_note_id", "patient_id", "appointment_id", "service_case_id"],
} as const satisfies Record<string, readonly string[]>;

export type EventType = keyof typeof EVENT_PAYLOAD_FIELDS;

/** Distributive, so the data of "any event" is the union of each type's shape. */
export type EventData<T extends EventType> = T extends EventType
  ? {
      /** null only where the record has no such link (an appointment without a case). */
      [K in (typeof EVENT_PAYLOAD_FIELDS)[T][number]]: number | string | null;
    }
  : never;

/** A domain event as written to the outbox, in the same transaction as the change it reports. */
export interface DomainEvent<T extends EventType = EventType> {
  organisationId: number;
  eventType: T;
  data: EventData<T>;
  occurredAt: Date;
}

/**
 * Builds an event, refusing any payload field outside the type's allow-list so a
 * status or a name can never leak into a webhook by accident.
 */
export function domainEvent<T extends EventType>(eventType: T, data: EventData<T>, occurredAt: Date): DomainEvent<T> {
  const allowed: readonly string[] = EVENT_PAYLOAD_FIELDS[eventType];
  for (const key of Object.keys(data)) {
    if (!allowed.includes(key)) throw new Error(`Event ${eventType} may not carry field ${key}`);
  }
  // Exactly the listed fields: a missing one is a defect too (receivers rely on the shape).
  for (const key of allowed) {
    if (!(key in data)) throw new Error(`Event ${eventType} must carry field ${key}`);
  }
  return { organisationId: Number((data as Record<string, unknown>).organisation_id), eventType, data, occurredAt };
}

/** One line per event type, for the catalog endpoint and docs/webhooks.md. */
export const EVENT_DESCRIPTIONS: Readonly<Record<EventType, string>> = Object.freeze({
  "patient.created": "A patient was registered.",
  "patient.updated": "A patient's record changed.",
  "appointment.created": "An appointment was booked.",
  "appointment.updated": "An appointment was checked in, started, checked out, marked a no-show or rescheduled.",
  "appointment.cancelled": "An appointment was cancelled.",
  "case.created": "A case was opened.",
  "case.updated": "A case changed (other than a discharge).",
  "case.discharged": "A case's treatment_status became DISCHARGED.",
  "soap_note.created": "A SOAP note was created.",
  "soap_note.completed": "A SOAP note was completed (signed; PDF, billing and plan of care follow).",
});

/** JSON type of each payload field: ids are integers, except the SERVICE_CASE_<id> string; links may be null. */
const FIELD_SCHEMAS: Readonly<Record<string, object>> = Object.freeze({
  service_case_id: { type: ["string", "null"], pattern: "^SERVICE_CASE_[0-9]+$" },
  soap_note_id: { type: "string", description: "the note's context_id" },
  clinic_id: { type: ["integer", "null"] },
  appointment_id: { type: ["integer", "null"] },
});

/** The JSON Schema of an event type's `data`: exactly its fields, all required, nothing else. */
export function eventDataSchema(type: EventType): object {
  const fields: readonly string[] = EVENT_PAYLOAD_FIELDS[type];
  return {
    type: "object",
    additionalProperties: false,
    required: [...fields],
    properties: Object.fromEntries(fields.map((f) => [f, FIELD_SCHEMAS[f] ?? { type: "integer" }])),
  };
}
