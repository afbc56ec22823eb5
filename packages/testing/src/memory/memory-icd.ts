import { icdWords, type IcdRepository } from "@openpractice/core";
import type { MemoryState } from "./memory-state.js";

/** ICD-10-CM code sets in memory: the same ordering as the SQL adapters. */
export function memoryIcd(s: () => MemoryState): IcdRepository {
  return {
    async replaceYear(year, codes, onProgress) {
      s().icd = s()
        .icd.filter((c) => c.year !== year)
        .concat(structuredClone(codes));
      await onProgress?.(codes.length, codes.length);
    },
    findCodes: async (year, codes) => structuredClone(s().icd.filter((c) => c.year === year && codes.includes(c.code))),
    latestYear: async () => (s().icd.length ? Math.max(...s().icd.map((c) => c.year)) : undefined),
    async search(q) {
      if (!q.codePrefix && q.words.length === 0) return { codes: [], total: 0 };
      const rows = s()
        .icd.filter((c) => c.year === q.year)
        .filter((c) => !q.codePrefix || c.code.startsWith(q.codePrefix))
        .filter((c) => {
          const words = icdWords(c.longDescription);
          return q.words.every((w) => words.some((x) => x.startsWith(w)));
        })
        .sort((a, b) =>
          q.codePrefix
            ? Number(b.code === q.codePrefix) - Number(a.code === q.codePrefix) || (a.code < b.code ? -1 : 1)
            : a.longDescription.length - b.longDescription.length || (a.code < b.code ? -1 : 1),
        );
      return { codes: structuredClone(rows.slice(q.offset, q.offset + q.limit)), total: rows.length };
    },
  };
}
