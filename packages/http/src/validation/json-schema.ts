/** A JSON Schema (draft 2020-12 subset used by ajv and OpenAPI 3.1 alike). */
export type JsonSchema = Record<string, unknown>;

/** The schema `nullable(S)` returns, as a type: request schemas keep their static type (define-route.ts). */
export type Nullable<S> = S extends { readonly type: infer T extends string }
  ? Omit<S, "type"> & { readonly type: readonly [T, "null"] }
  : S extends { readonly enum: readonly unknown[] }
    ? Omit<S, "enum"> & { readonly enum: readonly [...S["enum"], null] }
    : { readonly anyOf: readonly [S, { readonly type: "null" }] };

/** Nullable variant of a schema: OpenAPI 3.1 and ajv both read `type: [t, "null"]`. */
export function nullable<const S extends JsonSchema>(schema: S): Nullable<S> {
  const type = schema.type;
  // The conditional type cannot be narrowed by these runtime checks; each branch builds what Nullable<S> names.
  const widened: unknown =
    typeof type === "string"
      ? { ...schema, type: [type, "null"] }
      : schema.enum
        ? { ...schema, enum: [...(schema.enum as unknown[]), null] }
        : { anyOf: [schema, { type: "null" }] };
  return widened as Nullable<S>;
}
