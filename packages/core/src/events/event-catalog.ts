import type { EventDefinitions } from "../modules.js";
import { coreModules } from "../modules.js";

/**
 * Event types the core emits, with the exact identifier fields each payload may
 * carry (spec 6.1: identifiers only, organisation_id always, no status and no
 * patient health information), gathered from every module's `events`.
 */
type EventFields = { readonly [T in EventType]: Extract<EventDefinitions[T]["fields"], readonly string[]> };

let fieldsByType: EventFields | undefined;
let descriptionsByType: Readonly<Record<EventType, string>> | undefined;

/** The payload fields of every event type (read lazily: services import this file while the module list is built). */
export function eventPayloadFields(): EventFields {
  return (fieldsByType ??= Object.freeze(
    Object.fromEntries(coreModules.flatMap((m) => Object.entries(m.events).map(([type, d]) => [type, d.fields]))),
  ) as EventFields);
}

/** One line per event type, for the catalog endpoint and docs/webhooks.md. */
export function eventDescriptions(): Readonly<Record<EventType, string>> {
  return (descriptionsByType ??= Object.freeze(
    Object.fromEntries(coreModules.flatMap((m) => Object.entries(m.events).map(([type, d]) => [type, d.description]))),
  ) as Record<EventType, string>);
}

/** True when `type` names an event some module emits. */
export function isEventType(type: unknown): type is EventType {
  return typeof type === "string" && Object.hasOwn(eventPayloadFields(), type);
}

export type EventType = keyof EventDefinitions & string;

/** Distributive, so the data of "any event" is the union of each type's shape. */
export type EventData<T extends EventType> = T extends EventType
  ? {
      /** null only where the record has no such link (an appointment without a case). */
      [K in EventFields[T][number]]: number | string | null;
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
  const allowed: readonly string[] = eventPayloadFields()[eventType];
  for (const key of Object.keys(data)) {
    if (!allowed.includes(key)) throw new Error(`Event ${eventType} may not carry field ${key}`);
  }
  // Exactly the listed fields: a missing one is a defect too (receivers rely on the shape).
  for (const key of allowed) {
    if (!(key in data)) throw new Error(`Event ${eventType} must carry field ${key}`);
  }
  return { organisationId: Number((data as Record<string, unknown>).organisation_id), eventType, data, occurredAt };
}

/** JSON type of each payload field: ids are integers, except the SERVICE_CASE_<id> string; links may be null. */
const FIELD_SCHEMAS: Readonly<Record<string, object>> = Object.freeze({
  service_case_id: { type: ["string", "null"], pattern: "^SERVICE_CASE_[0-9]+$" },
  soap_note_id: { type: "string", description: "the note's context_id" },
  clinic_id: { type: ["integer", "null"] },
  appointment_id: { type: ["integer", "null"] },
});

/** The JSON Schema of an event type's `data`: exactly its fields, all required, nothing else. */
export function eventDataSchema(type: EventType): object {
  const fields: readonly string[] = eventPayloadFields()[type];
  return {
    type: "object",
    additionalProperties: false,
    required: [...fields],
    properties: Object.fromEntries(fields.map((f) => [f, FIELD_SCHEMAS[f] ?? { type: "integer" }])),
  };
}

/**
 * Sample `data` of an event type for a test delivery: every field of the type, valid against its schema
 * (eventDataSchema), with the caller's organisation and placeholder identifiers that name nothing (0, SAMPLE).
 */
export function sampleEventData(type: EventType, organisationId: number): Record<string, unknown> {
  const sample = (field: string): unknown =>
    field === "organisation_id"
      ? organisationId
      : field === "service_case_id"
        ? "SERVICE_CASE_0"
        : field === "soap_note_id"
          ? "SAMPLE"
          : 0;
  return Object.fromEntries(eventPayloadFields()[type].map((f: string) => [f, sample(f)]));
}
