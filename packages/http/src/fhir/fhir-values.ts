import { DomainError, splitValues, token } from "@openpractice/core";
import type { SentParam } from "./fhir-resource-type.js";

/** The ids a token or `_id` parameter names among `system`'s (other systems, and non-ids, name nothing). */
export function idsOfTokens(sent: readonly SentParam[] | undefined, system: string | null): number[][] | undefined {
  return sent?.map((p) =>
    splitValues(p.value).flatMap((raw) => {
      const t = system === null ? { system: undefined, code: raw } : token(raw);
      if (t.system !== undefined && t.system !== system) return [];
      const id = t.code && /^[1-9]\d{0,9}$/.test(t.code) ? Number(t.code) : Number.NaN;
      return Number.isSafeInteger(id) && id <= 2_147_483_647 ? [id] : [];
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
      const m = new RegExp(`^(?:.*/)?(?:${type}/)?([1-9]\\d{0,9})$`).exec(raw);
      if (!m) {
        if (/^[A-Za-z]+\/[^/]+$/.test(raw) && !raw.startsWith(`${type}/`)) return [];
        throw DomainError.invalidParameter(name, raw, `must reference a ${type}: ${type}/{id}`);
      }
      return [Number(m[1])];
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
