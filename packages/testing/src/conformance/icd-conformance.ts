import type { IcdCode10, Storage } from "@openpractice/core";
import { beforeEach, describe, expect, it } from "vitest";
import type { StorageFixture } from "./storage-fixture.js";

const code = (year: number, orderNumber: number, c: string, billable: boolean, longDescription: string): IcdCode10 => ({
  year,
  orderNumber,
  code: c,
  billable,
  shortDescription: longDescription.slice(0, 60),
  longDescription,
});

/** The ICD part of the storage contract: yearly replacement, code-prefix and word search, their order. */
export function describeIcdConformance(engine: string, current: () => { s: Storage; fx: StorageFixture }): void {
  describe("icd-10-cm", () => {
    let s: Storage;
    beforeEach(async () => {
      ({ s } = current());
      await s.repositories.icd.replaceYear(2025, [
        code(2025, 1, "M54", false, "Dorsalgia"),
        code(2025, 2, "M545", false, "Low back pain"),
        code(2025, 3, "M5450", true, "Low back pain, unspecified"),
        code(2025, 4, "M5459", true, "Other low back pain"),
        code(2025, 5, "M5416", true, "Radiculopathy, lumbar region"),
        code(2025, 6, "S8351", true, "Sprain of anterior cruciate ligament of knee"),
      ]);
    });

    it(`[${engine}] replaceYear is idempotent and keeps other years; latestYear is the newest`, async () => {
      await s.repositories.icd.replaceYear(2026, [code(2026, 1, "A00", false, "Cholera")]);
      await s.repositories.icd.replaceYear(2026, [code(2026, 1, "A00", false, "Cholera")]);
      expect(await s.repositories.icd.latestYear()).toBe(2026);
      expect(
        (await s.repositories.icd.search({ year: 2026, codePrefix: "A", words: [], limit: 10, offset: 0 })).total,
      ).toBe(1);
      expect(
        (await s.repositories.icd.search({ year: 2025, codePrefix: "M", words: [], limit: 10, offset: 0 })).total,
      ).toBe(5);
    });

    it(`[${engine}] a code prefix returns the exact code first, then the rest in code order`, async () => {
      const r = await s.repositories.icd.search({ year: 2025, codePrefix: "M545", words: [], limit: 10, offset: 0 });
      expect(r.codes.map((c) => c.code)).toEqual(["M545", "M5450", "M5459"]);
      expect(r.codes[1]).toEqual(code(2025, 3, "M5450", true, "Low back pain, unspecified"));
    });

    it(`[${engine}] findCodes reads exact codes of one year, leaving out those it lacks`, async () => {
      await s.repositories.icd.replaceYear(2026, [code(2026, 1, "M5450", true, "Low back pain, 2026")]);
      const found = await s.repositories.icd.findCodes(2025, ["M5450", "S8351", "M545", "Z9999", "M54"]);
      expect(found.map((c) => c.code).sort()).toEqual(["M54", "M545", "M5450", "S8351"]);
      expect(found.find((c) => c.code === "M5450")).toEqual(code(2025, 3, "M5450", true, "Low back pain, unspecified"));
      expect(await s.repositories.icd.findCodes(2025, [])).toEqual([]);
    });

    it(`[${engine}] words match word starts in any order, shortest description first, paged with a total`, async () => {
      const r = await s.repositories.icd.search({ year: 2025, words: ["pain", "back", "low"], limit: 2, offset: 0 });
      expect(r.codes.map((c) => c.code)).toEqual(["M545", "M5459"]);
      expect(r.total).toBe(3);
      expect(
        (await s.repositories.icd.search({ year: 2025, words: ["lumb", "radic"], limit: 10, offset: 0 })).codes.map(
          (c) => c.code,
        ),
      ).toEqual(["M5416"]);
      expect((await s.repositories.icd.search({ year: 2025, words: ["ack"], limit: 10, offset: 0 })).total).toBe(0);
    });
  });
}
