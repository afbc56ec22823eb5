import { DomainError, FHIR_SEARCH_LIMITS } from "@openpractice/core";
import type { FhirResourceType, FhirSearch, SentParam } from "./fhir-resource-type.js";

/** Result parameters read here for every type; `_format` only as JSON. */
const RESULT_PARAMS = new Set(["_count", "_offset", "_sort", "_format"]);
const JSON_FORMATS = new Set(["json", "application/json", "application/fhir+json"]);

/** `Prefer: handling=lenient` (FHIR R4 search.html#errors): unknown parameters are ignored instead of refused. */
export function isLenient(request: Request): boolean {
  return /(^|[,;\s])handling\s*=\s*lenient\b/i.test(request.headers.get("prefer") ?? "");
}

function nonNegativeInteger(name: string, raw: string, max: number): number {
  const n = /^\d{1,9}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(n) || n > max)
    throw DomainError.invalidParameter(name, raw, `must be an integer from 0 to ${max}`);
  return n;
}

/**
 * Reads a search's query against a resource type: its search parameters (`name:modifier=value`, repeated ones
 * kept apart: AND), `_count` (default 20, at most 100), `_offset`, `_sort` and `_format`. Unknown parameters,
 * unknown modifiers and sorts are refused together (400, each named) unless the request prefers lenient handling;
 * malformed values are refused by the type's own readers.
 */
export function readSearch(type: FhirResourceType, url: URL, lenient: boolean): FhirSearch {
  const params = new Map<string, SentParam[]>();
  const unknown: Array<{ field: string; reason: string; value?: unknown }> = [];
  let count: number = FHIR_SEARCH_LIMITS.defaultCount;
  let offset = 0;
  let sort: FhirSearch["sort"] = [];
  const once = (key: string) => {
    if (url.searchParams.getAll(key).length > 1)
      throw DomainError.invalidParameter(key, url.searchParams.getAll(key), "must be given once");
  };
  for (const [key, value] of url.searchParams) {
    if (RESULT_PARAMS.has(key)) {
      once(key);
      if (key === "_count") count = nonNegativeInteger("_count", value, FHIR_SEARCH_LIMITS.maxCount);
      else if (key === "_offset") offset = nonNegativeInteger("_offset", value, FHIR_SEARCH_LIMITS.maxOffset);
      else if (key === "_format" && !JSON_FORMATS.has(value))
        throw DomainError.invalidParameter("_format", value, "only JSON is served: json or application/fhir+json");
      else if (key === "_sort") {
        sort = value.split(",").map((s) => ({ name: s.replace(/^-/, ""), descending: s.startsWith("-") }));
        if (sort.length > 1) throw DomainError.invalidParameter("_sort", value, "takes one key (ties go by id)");
        const bad = sort.filter((s) => !type.sorts.includes(s.name));
        if (bad.length && !lenient)
          throw DomainError.invalidParameter(
            "_sort",
            value,
            `${type.type} sorts by ${type.sorts.length ? type.sorts.join(", ") : "nothing but its id"} only`,
          );
        sort = sort.filter((s) => type.sorts.includes(s.name));
      }
      continue;
    }
    const [name = "", modifier] = key.split(":", 2);
    const param = type.searchParams.find((p) => p.name === name);
    if (!param) {
      unknown.push({
        field: key,
        reason: `is not a search parameter of ${type.type} here (see /fhir/R4/metadata)`,
        value,
      });
      continue;
    }
    if (modifier !== undefined && !(param.modifiers ?? []).includes(modifier)) {
      unknown.push({
        field: key,
        reason: `the modifier :${modifier} is not supported on ${name}${param.modifiers?.length ? ` (only :${param.modifiers.join(", :")})` : ""}`,
        value,
      });
      continue;
    }
    if (value === "") continue; // An empty parameter is ignored (search.html#errors).
    params.set(name, [...(params.get(name) ?? []), { modifier, value }]);
  }
  if (unknown.length && !lenient)
    throw DomainError.validation(unknown, `Unknown search parameters: ${unknown.map((u) => u.field).join(", ")}`);
  return { params, count, offset, sort };
}

/** The search's own parameters again, for the Bundle's self and next links (what was used, in a stable order). */
export function searchQuery(search: FhirSearch, page: { offset: number }): string {
  const q = new URLSearchParams();
  for (const [name, sent] of search.params)
    for (const p of sent) q.append(p.modifier ? `${name}:${p.modifier}` : name, p.value);
  if (search.sort.length) q.set("_sort", search.sort.map((s) => `${s.descending ? "-" : ""}${s.name}`).join(","));
  q.set("_count", String(search.count));
  if (page.offset) q.set("_offset", String(page.offset));
  return q.toString();
}
