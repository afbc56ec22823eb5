import type { FeeScheduleEntry, FeeScheduleRepository } from "@openpractice/core";
import { type MemoryState, moduleState } from "./memory-state.js";

/** Organisations' fee schedules in memory, by organisation, year and code. */
export function memoryFeeSchedules(s: () => MemoryState): FeeScheduleRepository {
  const entries = () => moduleState(s(), "feeSchedules", () => new Map<string, FeeScheduleEntry>());
  const key = (e: Pick<FeeScheduleEntry, "organisationId" | "year" | "code">) =>
    `${e.organisationId}:${e.year}:${e.code}`;
  const ofYear = (organisationId: number, year: number) =>
    [...entries().values()]
      .filter((e) => e.organisationId === organisationId && e.year === year)
      .sort((a, b) => (a.code < b.code ? -1 : 1));
  return {
    async replaceYears(organisationId, years, list) {
      for (const [k, e] of entries())
        if (e.organisationId === organisationId && years.includes(e.year)) entries().delete(k);
      for (const e of list) entries().set(key(e), structuredClone({ ...e, organisationId }));
    },
    async list(organisationId, year, page) {
      const all = ofYear(organisationId, year);
      return { entries: structuredClone(all.slice(page.offset, page.offset + page.limit)), total: all.length };
    },
    async allowedCents(organisationId, year, codes) {
      const out = new Map<string, number>();
      for (const code of codes) {
        const found = entries().get(key({ organisationId, year, code }));
        if (found) out.set(code, found.allowedCents);
      }
      return out;
    },
  };
}
