import { describe, expect, it } from "vitest";
import { crossingIndex, thresholdsOf } from "./therapy-thresholds.js";
import {
  assistantOfCredentials,
  bucketOfDiscipline,
  disciplineOfCredentials,
  disciplineOfModifiers,
} from "./therapy-discipline.js";

describe("Medicare therapy thresholds", () => {
  it("knows 2024 to 2026 and refuses to guess another year", () => {
    expect(thresholdsOf(2026)).toEqual({ kxCents: 248_000, reviewCents: 300_000 });
    expect(thresholdsOf(2025)?.kxCents).toBe(241_000);
    expect(thresholdsOf(2024)?.kxCents).toBe(233_000);
    expect(thresholdsOf(2023)).toBeUndefined();
    expect(thresholdsOf(2027)).toBeUndefined();
  });

  it("puts GP and GN together and GO apart", () => {
    expect(disciplineOfModifiers(["GP"])).toBe("PT");
    expect(disciplineOfModifiers(["59", "GN"])).toBe("SLP");
    expect(disciplineOfModifiers(["GO", "CO"])).toBe("OT");
    expect(disciplineOfModifiers(["59"])).toBeUndefined();
    expect(["PT", "SLP", "OT"].map((d) => bucketOfDiscipline(d as "PT"))).toEqual(["PT_SLP", "PT_SLP", "OT"]);
    // Credentials as providers write them.
    expect(disciplineOfCredentials(["DPT", "OCS"])).toBe("PT");
    expect(disciplineOfCredentials(["OTR/L"])).toBe("OT");
    expect(disciplineOfCredentials(["MS", "CCC-SLP"])).toBe("SLP");
    expect(disciplineOfCredentials(["PTA"])).toBeUndefined();
    expect(assistantOfCredentials(["PTA"])).toBe("PTA");
    expect(assistantOfCredentials(["COTA/L"])).toBe("OTA");
    expect(assistantOfCredentials(["DPT"])).toBeUndefined();
  });

  it("finds the line that first exceeds the threshold, exactly at the boundary", () => {
    // $2,450 before; lines of $20, $10, $5: $2,480 exactly is not over, the $5 line is.
    expect(crossingIndex(245_000, [2_000, 1_000, 500], 248_000)).toBe(2);
    expect(crossingIndex(245_000, [2_000, 1_000], 248_000)).toBeUndefined();
    expect(crossingIndex(249_000, [100], 248_000)).toBe(0);
    expect(crossingIndex(249_000, [], 248_000)).toBeUndefined();
  });
});
