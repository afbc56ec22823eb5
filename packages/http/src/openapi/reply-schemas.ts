import type { JsonSchema } from "../validation/json-schema.js";

/*
 * Building blocks of the schemas of what the server sends. Request schemas say what a route accepts (ajv validates
 * with them); these say what it answers, for the OpenAPI document and the clients generated from it. The views
 * (…View functions of the contract files) write every key, null when empty, so a reply object lists every property
 * in `required` unless it says otherwise. A schema with a `title` becomes a named component of the document
 * (buildOpenApiDocument hoists it and refers to it with $ref).
 */

export const plainText = { type: "string" } as const;
export const textOrNull = { type: ["string", "null"] } as const;
export const integer = { type: "integer" } as const;
export const integerOrNull = { type: ["integer", "null"] } as const;
export const number = { type: "number" } as const;
export const numberOrNull = { type: ["number", "null"] } as const;
export const boolean = { type: "boolean" } as const;
export const date = { type: "string", format: "date" } as const;
export const dateOrNull = { type: ["string", "null"], format: "date" } as const;
export const dateTime = { type: "string", format: "date-time" } as const;
export const dateTimeOrNull = { type: ["string", "null"], format: "date-time" } as const;
/** Any JSON object (a free-form map). */
export const anyObject = { type: "object", additionalProperties: true } as const;

const ZONELESS = "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}$";
/** v1 shows timestamps without a zone; they are UTC (spec 9.3, zonelessUtc). */
export const zonelessTime = {
  type: "string",
  pattern: ZONELESS,
  description: "Zoneless ISO 8601 date-time in UTC, e.g. 2025-03-14T15:00:00",
} as const;
export const zonelessTimeOrNull = { ...zonelessTime, type: ["string", "null"] } as const;

/** v2 ids are strings (spec 2.5): the decimal digits of the stored id. */
export const idText = { type: "string", pattern: "^[1-9][0-9]*$" } as const;
export const idTextOrNull = { type: ["string", "null"], pattern: "^[1-9][0-9]*$" } as const;
/** v1 ids are numbers. */
export const id = { type: "integer", minimum: 1 } as const;
export const idOrNull = { type: ["integer", "null"], minimum: 1 } as const;
/** A case as v1 shows it: SERVICE_CASE_<id> (serviceCaseId). */
export const serviceCaseIdText = { type: "string", pattern: "^SERVICE_CASE_[1-9][0-9]*$" } as const;
export const serviceCaseIdOrNull = { ...serviceCaseIdText, type: ["string", "null"] } as const;

export const described = <S extends JsonSchema>(schema: S, description: string) => ({ ...schema, description });
export const arrayOf = (items: JsonSchema, description?: string): JsonSchema => ({
  type: "array",
  items,
  ...(description ? { description } : {}),
});
export const oneOfStrings = (values: readonly string[], description?: string): JsonSchema => ({
  type: "string",
  enum: [...values],
  ...(description ? { description } : {}),
});

/**
 * `schema` or null. A named schema stays whole (`anyOf` it and null), so the component is the object and the
 * property says it may be null; other schemas widen their type.
 */
export function orNull(schema: JsonSchema): JsonSchema {
  if (schema.title !== undefined || typeof schema.type !== "string") return { anyOf: [schema, { type: "null" }] };
  const widened: JsonSchema = { ...schema, type: [schema.type, "null"] };
  if (Array.isArray(schema.enum)) widened.enum = [...schema.enum, null];
  return widened;
}

export interface ReplyObjectOptions {
  /** The component name (PascalCase): the object becomes `#/components/schemas/<title>`. */
  title?: string;
  description?: string;
  /** Properties sent only in some replies: left out of `required`. */
  optional?: readonly string[];
  /** Realistic instances (JSON Schema `examples`); a test validates each against the schema. */
  examples?: readonly object[];
}

/** An object the server sends: every property is always present (null when empty) unless `optional` names it. */
export function replyObject(properties: Record<string, JsonSchema>, options: ReplyObjectOptions = {}): JsonSchema {
  const optional = new Set(options.optional ?? []);
  for (const name of optional)
    if (!(name in properties)) throw new Error(`replyObject: optional property ${name} is not a property`);
  return {
    ...(options.title ? { title: options.title } : {}),
    type: "object",
    ...(options.description ? { description: options.description } : {}),
    required: Object.keys(properties).filter((name) => !optional.has(name)),
    properties,
    ...(options.examples ? { examples: options.examples.map((e) => structuredClone(e)) } : {}),
  };
}

/**
 * The schema of a resource read with `fields=`: only `id` and the named fields are sent, so only `id` is required.
 * Without `fields` every property of `full` is present.
 */
export function fieldSelection(full: JsonSchema, title: string, extra: Record<string, JsonSchema> = {}): JsonSchema {
  const fullTitle = String(full.title);
  return {
    ...full,
    title,
    description: `${fullTitle} as read with \`fields\`: id and the fields named are sent (every field of ${fullTitle} without \`fields\`).`,
    required: ["id"],
    properties: { ...(full.properties as Record<string, JsonSchema>), ...extra },
  };
}
