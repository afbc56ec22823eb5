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
  assertUtf8Query(url.search);
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

const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Refuses a parameter whose percent-encoded bytes are not UTF-8 (%ED%A0%80 encodes a lone surrogate, %FF no
 * character): URLSearchParams would silently read each bad byte as U+FFFD, so the value used would not be the one
 * sent. Malformed escapes such as "%zz" stay text, as URLSearchParams reads them.
 */
export function assertUtf8Query(search: string): void {
  if (!search.includes("%")) return;
  for (const pair of search.slice(1).split("&")) {
    if (!pair.includes("%")) continue;
    try {
      STRICT_UTF8.decode(percentDecoded(pair));
    } catch {
      const [name = "", value = ""] = [...new URLSearchParams(pair)][0] ?? [];
      throw DomainError.invalidParameter(name, value, "must be UTF-8 text once percent-decoded");
    }
  }
}

/** The bytes of a percent-encoded query pair (`+` and valid `%XX` decoded; the rest as its UTF-8). */
function percentDecoded(text: string): Uint8Array {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const hex = text.charCodeAt(i) === 0x25 ? text.slice(i + 1, i + 3) : "";
    if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(text[i] === "+" ? " " : (text[i] ?? ""), "utf8"));
  }
  return Uint8Array.from(bytes);
}
