/** A JSON Schema (draft 2020-12 subset used by ajv and OpenAPI 3.1 alike). */
export type JsonSchema = Record<string, unknown>;

/** Nullable variant of a schema: OpenAPI 3.1 and ajv both read `type: [t, "null"]`. */
export function nullable(schema: JsonSchema): JsonSchema {
  const type = schema.type;
  if (typeof type === "string") return { ...schema, type: [type, "null"] };
  if (schema.enum) return { ...schema, enum: [...(schema.enum as unknown[]), null] };
  return { anyOf: [schema, { type: "null" }] };
}
