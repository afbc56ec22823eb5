import { describe, expect, it } from "vitest";
import { midpointUnits, supportedUnits } from "./billing-units.js";

const timed = (duration: number, units = 0) => ({ timed: true, duration, units });

describe("midpointUnits", () => {
  it.each([
    [0, 0],
    [7, 0],
    [8, 1],
    [22, 1],
    [23, 2],
    [37, 2],
    [38, 3],
    [52, 3],
    [53, 4],
    [67, 4],
    [68, 5],
  ])("%i minutes support %i units", (minutes, units) => expect(midpointUnits(minutes)).toBe(units));
});

describe("supportedUnits: cms_8_minute", () => {
  it("follows the CMS total-time table for one code", () => {
    for (const [m, u] of [
      [7, 0],
      [8, 1],
      [22, 1],
      [23, 2],
      [37, 2],
      [38, 3],
      [60, 4],
      [68, 5],
    ] as const) {
      expect(supportedUnits("cms_8_minute", [timed(m)])).toEqual([u]);
    }
  });

  it("counts the visit's total: two 7-minute codes make 14 minutes, one unit, to the first of the tie", () => {
    expect(supportedUnits("cms_8_minute", [timed(7), timed(7)])).toEqual([1, 0]);
  });

  it("gives full 15-minute blocks first, then the largest remainder (CMS example: 33 + 7 minutes = 40 = 3 units)", () => {
    // 33 minutes of 97110 (2 full blocks, 3 left) and 7 of 97140: 40 minutes support 3 units; the third goes to the 7-minute remainder.
    expect(supportedUnits("cms_8_minute", [timed(33), timed(7)])).toEqual([2, 1]);
  });

  it("assigns a unit to each of several remainders when the total supports it", () => {
    // 10 + 10 + 10 = 30 minutes: 2 units; equal remainders, so the first two lines get them.
    expect(supportedUnits("cms_8_minute", [timed(10), timed(10), timed(10)])).toEqual([1, 1, 0]);
  });

  it("supports one unit per untimed line and ignores untimed minutes in the total", () => {
    expect(supportedUnits("cms_8_minute", [{ timed: false, duration: 45, units: 1 }, timed(5)])).toEqual([1, 0]);
  });
});

describe("supportedUnits: per_code_midpoint and none", () => {
  it("per_code_midpoint counts each code on its own", () => {
    expect(supportedUnits("per_code_midpoint", [timed(7), timed(7)])).toEqual([0, 0]);
    expect(supportedUnits("per_code_midpoint", [timed(33), timed(8)])).toEqual([2, 1]);
  });

  it("none supports whatever is billed", () => {
    expect(supportedUnits("none", [timed(1, 4), { timed: false, duration: 0, units: 3 }])).toEqual([4, 3]);
  });
});
