import { DomainError, MAX_STORED_ID, splitValues, token } from "@openpractice/core";
import type { SentParam } from "./fhir-resource-type.js";

/**
 * A resource id read as a record id: the decimal numbers 1 to MAX_STORED_ID, else 0 (which names nothing, so the
 * read answers not found; a larger number would be out of range for the integer columns).
 */
export function recordId(text: string): number {
  const n = /^[1-9]\d{0,9}$/.test(text) ? Number(text) : 0;
  return n <= MAX_STORED_ID ? n : 0;
}

/**
 * The ids a token or `_id` parameter names among `system`'s (other systems, and non-ids, name nothing). An occurrence
 * with `system|` (any value of that system) holds for every record, so it narrows nothing and is left out.
 */
export function idsOfTokens(sent: readonly SentParam[] | undefined, system: string | null): number[][] | undefined {
  const narrowing = sent?.filter((p) => system === null || !splitValues(p.value).some((raw) => raw === `${system}|`));
  return narrowing?.map((p) =>
    splitValues(p.value).flatMap((raw) => {
      const t = system === null ? { system: undefined, code: raw } : token(raw);
      if (t.system !== undefined && t.system !== system) return [];
      const id = t.code ? recordId(t.code) : 0;
      return id > 0 ? [id] : [];
    }),
  );
}

/** A reference parameter's ids of one type (`Practitioner/12`, `12`, or a full URL ending so). */
export function referencedIds(
  name: string,
  type: string,
  sent: readonly SentParam[] | undefined,
): number[][] | undefined {
  return sent?.map((p) =>
    splitValues(p.value).flatMap((raw) => {
      // A bare id, `Type/id`, or a URL ending `/Type/id`; a reference to another type names none of these.
      const m = /^(?:(?:.*\/)?([A-Za-z]+)\/)?([^/]+)$/.exec(raw);
      if (!m) throw DomainError.invalidParameter(name, raw, `must reference a ${type}: ${type}/{id}`);
      if (m[1] !== undefined && m[1] !== type) return [];
      const id = recordId(m[2] as string);
      return id > 0 ? [id] : [];
    }),
  );
}

/** One value only: a parameter whose alternatives (comma) the facade does not combine. */
export function singleValue(name: string, p: SentParam): string {
  const values = splitValues(p.value);
  if (values.length !== 1)
    throw DomainError.invalidParameter(name, p.value, "takes one value (repeat the parameter to AND)");
  return values[0]!;
}

/** Several date ranges (a parameter repeated: AND) as one: the latest start and the earliest end. */
export function intersect(ranges: ReadonlyArray<{ from?: Date | undefined; before?: Date | undefined }>) {
  let from: Date | undefined;
  let before: Date | undefined;
  for (const r of ranges) {
    if (r.from && (!from || r.from > from)) from = r.from;
    if (r.before && (!before || r.before < before)) before = r.before;
  }
  return { from, before };
}

/** The ids every occurrence of a reference parameter names (AND of its ORs), or undefined when absent. */
export function commonIds(lists: number[][] | undefined): number[] | undefined {
  if (!lists || lists.length === 0) return undefined;
  return lists.reduce((acc, ids) => acc.filter((id) => ids.includes(id)));
}

/**
 * The record a search is scoped by, or undefined when the service answers `code` (the patient, provider… a search
 * names is not there: the search matches nothing rather than failing).
 */
export async function unlessMissing<T>(read: Promise<T>, code: string): Promise<T | undefined> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof DomainError && error.code === code) return undefined;
    throw error;
  }
}
