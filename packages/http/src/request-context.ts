import { DomainError } from "@openpractice/core";
import type { SchemaValidator } from "./validation/ajv-validator.js";
import type { JsonSchema } from "./validation/json-schema.js";

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's X-Request-Id when it is a safe token, otherwise a new one. */
export function requestIdFor(request: Request, newId: () => string): string {
  const given = request.headers.get("x-request-id");
  return given && REQUEST_ID.test(given) ? given : `req_${newId()}`;
}

/**
 * The query string as an object validated against `schema` (values coerced to
 * the schema's types). The first problem becomes INVALID_PARAMETER with
 * parameter, value and reason (spec 7.5).
 */
export function parseQuery(
  url: URL,
  schema: JsonSchema | undefined,
  validator: SchemaValidator,
): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(key);
    if (values.length > 1) throw DomainError.invalidParameter(key, values, "must be given once");
    query[key] = values[0];
  }
  if (!schema) return query;
  const raw = { ...query };
  const issues = validator.check(schema, query);
  const first = issues[0];
  if (first) {
    const reason = first.reason === "is not a known field" ? "is not a known parameter" : first.reason;
    throw DomainError.invalidParameter(first.field, raw[first.field] ?? null, reason);
  }
  return query;
}
