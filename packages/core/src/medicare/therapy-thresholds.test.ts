import { describe, expect, it } from "vitest";
import { bucketOfModifiers, crossingIndex, thresholdsOf } from "./therapy-thresholds.js";

describe("Medicare therapy thresholds", () => {
  it("knows 2024 to 2026 and refuses to guess another year", () => {
    expect(thresholdsOf(2026)).toEqual({ kxCents: 248_000, reviewCents: 300_000 });
    expect(thresholdsOf(2025)?.kxCents).toBe(241_000);
    expect(thresholdsOf(2024)?.kxCents).toBe(233_000);
    expect(thresholdsOf(2023)).toBeUndefined();
    expect(thresholdsOf(2027)).toBeUndefined();
  });

  it("puts GP and GN together and GO apart", () => {
    expect(bucketOfModifiers(["GP"])).toBe("PT_SLP");
    expect(bucketOfModifiers(["59", "GN"])).toBe("PT_SLP");
    expect(bucketOfModifiers(["GO", "CO"])).toBe("OT");
    expect(bucketOfModifiers(["59"])).toBeUndefined();
  });

  it("finds the line that first exceeds the threshold, exactly at the boundary", () => {
    // $2,450 before; lines of $20, $10, $5: $2,480 exactly is not over, the $5 line is.
    expect(crossingIndex(245_000, [2_000, 1_000, 500], 248_000)).toBe(2);
    expect(crossingIndex(245_000, [2_000, 1_000], 248_000)).toBeUndefined();
    expect(crossingIndex(249_000, [100], 248_000)).toBe(0);
    expect(crossingIndex(249_000, [], 248_000)).toBeUndefined();
  });
});
