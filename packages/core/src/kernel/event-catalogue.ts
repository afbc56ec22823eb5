import type { EventDefinitionRecord } from "./events.js";

/**
 * Every event type of one practice, as the composition root assembles it from the modules and hands it to the
 * modules that route events they do not write themselves (webhooks): what each type carries, its schema and a
 * sample.
 */
export interface EventCatalogue {
  /** Each type's payload fields, in the modules' order. */
  readonly fields: Readonly<Record<string, readonly string[]>>;
  /** One line per type, for the catalog endpoint and docs/webhooks.md. */
  readonly descriptions: Readonly<Record<string, string>>;
  /** True when `type` names an event some module emits. */
  has(type: unknown): type is string;
  /** The JSON Schema of a type's `data`: exactly its fields, all required, nothing else. */
  dataSchema(type: string): object;
  /**
   * Sample `data` of a type for a test delivery: every field of the type, valid against its schema, with the
   * caller's organisation and placeholder identifiers that name nothing (0, SAMPLE).
   */
  sampleData(type: string, organisationId: number): Record<string, unknown>;
}

/** JSON type of each payload field: ids are integers, except the SERVICE_CASE_<id> string; links may be null. */
const FIELD_SCHEMAS: Readonly<Record<string, object>> = Object.freeze({
  service_case_id: { type: ["string", "null"], pattern: "^SERVICE_CASE_[0-9]+$" },
  soap_note_id: { type: "string", description: "the note's context_id" },
  clinic_id: { type: ["integer", "null"] },
  appointment_id: { type: ["integer", "null"] },
});

const sampleOf = (field: string, organisationId: number): unknown =>
  field === "organisation_id"
    ? organisationId
    : field === "service_case_id"
      ? "SERVICE_CASE_0"
      : field === "soap_note_id"
        ? "SAMPLE"
        : 0;

/** The catalogue of the given definitions (one record of every module's, merged in the modules' order). */
export function eventCatalogue(definitions: EventDefinitionRecord): EventCatalogue {
  const entries = Object.entries(definitions);
  const fields: Readonly<Record<string, readonly string[]>> = Object.freeze(
    Object.fromEntries(entries.map(([type, d]) => [type, d.fields])),
  );
  const descriptions: Readonly<Record<string, string>> = Object.freeze(
    Object.fromEntries(entries.map(([type, d]) => [type, d.description])),
  );
  const fieldsOf = (type: string): readonly string[] => fields[type] ?? [];
  return Object.freeze({
    fields,
    descriptions,
    has: (type: unknown): type is string => typeof type === "string" && Object.hasOwn(fields, type),
    dataSchema: (type: string) => ({
      type: "object",
      additionalProperties: false,
      required: [...fieldsOf(type)],
      properties: Object.fromEntries(fieldsOf(type).map((f) => [f, FIELD_SCHEMAS[f] ?? { type: "integer" }])),
    }),
    sampleData: (type: string, organisationId: number) =>
      Object.fromEntries(fieldsOf(type).map((f) => [f, sampleOf(f, organisationId)])),
  });
}
