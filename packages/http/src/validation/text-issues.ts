import type { ValidationIssue } from "@openpractice/core";
import { SchemaValidationError } from "./schema-validation-error.js";

const NUL_REASON = "must not contain the NUL character (U+0000)";
const SURROGATE_REASON =
  "must not contain a lone UTF-16 surrogate (U+D800 to U+DFFF not in a pair): it has no UTF-8 form, so it could not be stored as sent";
const KEY_REASON = "is a field name with a lone UTF-16 surrogate (U+D800 to U+DFFF not in a pair)";

/** In Unicode mode a surrogate pair is one code point: only surrogates outside a pair match. */
const LONE_SURROGATE = /\p{Cs}/u;

/** Why `text` cannot be stored as sent, or undefined. */
function textProblem(text: string): string | undefined {
  if (text.includes("\u0000")) return NUL_REASON;
  if (LONE_SURROGATE.test(text)) return SURROGATE_REASON;
  return undefined;
}

/**
 * Fields whose text (or key) the engines would not store as sent: U+0000, which PostgreSQL text and jsonb cannot
 * hold, and lone surrogates ("\ud800" in JSON), which every engine's UTF-8 turns into U+FFFD, so a patient's name
 * would change between the request and the record. Refused on every engine alike (a key names itself: JSON
 * replies escape its surrogate). Walks with its own stack: a deeply nested value
 * cannot overflow it.
 */
export function textIssues(data: unknown): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const stack: Array<[unknown, string]> = [[data, ""]];
  while (stack.length > 0) {
    const [node, path] = stack.pop()!;
    if (typeof node === "string") {
      const reason = textProblem(node);
      if (reason) issues.push({ field: path || "(body)", reason });
    } else if (node && typeof node === "object") {
      for (const [key, value] of Object.entries(node)) {
        const reason = textProblem(key);
        if (reason)
          issues.push({ field: joined(path, key), reason: reason === SURROGATE_REASON ? KEY_REASON : reason });
        else stack.push([value, joined(path, key)]);
      }
    }
  }
  return issues;
}

/** For a body no schema describes: its text alone is checked. */
export function assertStorableText(data: unknown): void {
  const issues = textIssues(data);
  if (issues.length > 0) throw new SchemaValidationError(issues);
}

const joined = (path: string, key: string) => (path ? `${path}.${key}` : key);
