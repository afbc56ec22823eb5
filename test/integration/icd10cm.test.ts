import { createPractice, parseIcdOrderLine, type Practice, type Storage } from "@openpractice/core";
import { createSqliteStorage } from "@openpractice/sqlite";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeWithSharedFiles, ICD10CM_DATA } from "../support/shared-data.js";
import { testPracticeKeys } from "../support/practice-keys.js";

const SAMPLE = `${ICD10CM_DATA}icd10cm_order_2026_sample.txt`;
const WHOLE = `${ICD10CM_DATA}icd10cm_order_2025_derived.txt`;
const describeWithData = describeWithSharedFiles(import.meta.url, [SAMPLE, WHOLE]);

describeWithData("ICD-10-CM order file: the real CMS lines", () => {
  it("parses the five FY2026 sample lines column by column", () => {
    const lines = readFileSync(SAMPLE, "latin1").split("\n").filter(Boolean);
    const codes = lines.map((l) => parseIcdOrderLine(l, 2026));
    expect(codes.map((c) => [c.orderNumber, c.code, c.billable])).toEqual([
      [1, "A00", false],
      [2, "A000", true],
      [48, "A0472", true],
      [98172, "Z99", false],
      [98180, "Z9981", true],
    ]);
    expect(codes[2]).toMatchObject({
      shortDescription: "Enterocolitis d/t Clostridium difficile, not spcf as recur",
      longDescription: "Enterocolitis due to Clostridium difficile, not specified as recurrent",
    });
  });

  it("refuses a malformed line, naming the columns", () => {
    expect(() => parseIcdOrderLine("0001 A00 0 Cholera", 2026)).toThrow(/order number/);
    expect(() => parseIcdOrderLine("00001 a00     0 Cholera", 2026)).toThrow(/code of 3 to 7/);
    expect(() => parseIcdOrderLine("00001 A00     7 Cholera", 2026)).toThrow(/column 14/);
  });
});

describeWithData("ICD-10-CM search over the whole code set (97,606 rows, SQLite)", () => {
  let storage: Storage;
  let practice: Practice;
  beforeAll(async () => {
    storage = await createSqliteStorage({ filename: ":memory:" });
    practice = createPractice({ keys: testPracticeKeys(), storage });
    const summary = await practice.icd.importOrderFile(readFileSync(WHOLE, "latin1").split("\n"), 2025);
    expect(summary).toEqual({ year: 2025, codes: 97606, billable: 74282 });
  }, 120_000);
  afterAll(async () => {
    await storage.close();
  });
  const codes = async (q: string, size = 20) => (await practice.icd.search({ q, size })).codes.map((c) => c.code);

  it('"low back pain" finds M54.50', async () => {
    expect((await codes("low back pain")).slice(0, 5)).toContain("M5450");
  });

  it('"M54.5" finds its children, the exact code first; without the dot too', async () => {
    const found = await codes("M54.5");
    expect(found[0]).toBe("M545");
    expect(found).toEqual(expect.arrayContaining(["M5450", "M5451", "M5459"]));
    expect(await codes("m545")).toEqual(found);
  });

  it('"lumbar radiculopathy" finds M54.16, words in any order', async () => {
    expect(await codes("lumbar radiculopathy")).toContain("M5416");
    expect(await codes("radiculopathy lumbar")).toContain("M5416");
  });

  it("pages, marks billable codes and headers, and accepts only ICD10", async () => {
    const page1 = await practice.icd.search({ q: "fracture", size: 5 });
    const page2 = await practice.icd.search({ q: "fracture", size: 5, page: 2 });
    expect(page1.total).toBeGreaterThan(1000);
    expect(page2.codes.map((c) => c.code)).not.toEqual(page1.codes.map((c) => c.code));
    const exact = async (q: string) => (await practice.icd.search({ q, size: 1 })).codes[0];
    expect(await exact("M54.50")).toMatchObject({ code: "M5450", billable: true, year: 2025 });
    expect(await exact("M54")).toMatchObject({ code: "M54", billable: false });
    await expect(practice.icd.search({ q: "x", rev: "ICD9" })).rejects.toMatchObject({
      code: "INVALID_PARAMETER",
      details: { parameter: "rev" },
    });
  });
});
