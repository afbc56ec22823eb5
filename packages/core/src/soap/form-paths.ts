import { DomainError, type ValidationIssue } from "../kernel/domain-error.js";
import { jsonDepth, MAX_JSON_DEPTH } from "../kernel/json-depth.js";

const SEGMENT = /^[A-Za-z0-9_-]{1,64}$/;
const FORBIDDEN = new Set(["__proto__", "prototype", "constructor"]);

/**
 * Applies `partialResponse` (dot-notation path → value) to a copy of `form`:
 * each path replaces the value at that path, creating objects on the way.
 * Paths are checked first, so a bad one changes nothing; so is the depth an
 * answer would reach in the form (at most MAX_JSON_DEPTH, as request bodies).
 */
export function applyPartialResponse(
  form: Record<string, unknown>,
  partial: Record<string, unknown>,
): Record<string, unknown> {
  const issues: ValidationIssue[] = [];
  const entries = Object.entries(partial);
  if (entries.length === 0) issues.push({ field: "partialResponse", reason: "must set at least one path" });
  for (const [path, value] of entries) {
    const parts = path.split(".");
    if (parts.length > 10 || parts.some((p) => !SEGMENT.test(p) || FORBIDDEN.has(p))) {
      issues.push({
        field: `partialResponse.${path}`,
        reason: "must be a dot path of up to 10 names of letters, digits, _ or -",
        value: path,
      });
    } else if (parts.length + jsonDepth(value) > MAX_JSON_DEPTH) {
      issues.push({
        field: `partialResponse.${path}`,
        reason: `would nest the form deeper than ${MAX_JSON_DEPTH} levels`,
      });
    }
  }
  if (issues.length) throw DomainError.validation(issues);
  const next = structuredClone(form);
  for (const [path, value] of entries) {
    const parts = path.split(".");
    let node: Record<string, unknown> = next;
    for (const part of parts.slice(0, -1)) {
      const child = node[part];
      if (child === null || typeof child !== "object" || Array.isArray(child)) node[part] = {};
      node = node[part] as Record<string, unknown>;
    }
    node[parts.at(-1)!] = structuredClone(value);
  }
  return next;
}

/** The value at a dot path, or undefined. */
export function valueAt(form: Record<string, unknown>, path: string): unknown {
  return path
    .split(".")
    .reduce<unknown>(
      (node, key) => (node && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined),
      form,
    );
}
