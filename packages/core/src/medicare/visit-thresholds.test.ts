import { describe, expect, it } from "vitest";
import { checkVisitThresholds } from "./visit-thresholds.js";

const fees = new Map([
  ["97110", 20_000],
  ["97140", 5_000],
  ["97530", 6_000],
]);
const none = { PT_SLP: 0, OT: 0 };

describe("the KX and review thresholds over one visit", () => {
  it("proposes KX from the line that takes a bucket past $2,480 (2026), never on the other bucket", () => {
    const check = checkVisitThresholds(
      2026,
      { PT_SLP: 170_000, OT: 0 },
      [
        { code: "97140", units: 2, duration: 15, modifiers: ["GP"] }, // 1,800
        { code: "97110", units: 4, duration: 15, modifiers: ["GP"] }, // 2,600: crosses
        { code: "97530", units: 1, duration: 15, modifiers: ["GO"] }, // OT 60
        { code: "97140", units: 1, duration: 15, modifiers: ["GN"] }, // SLP counts with PT: after the crossing
      ],
      fees,
    );
    expect(check.lines.map((l) => [l.bucket, l.allowedCents, l.kxProposed])).toEqual([
      ["PT_SLP", 10_000, false],
      ["PT_SLP", 80_000, true],
      ["OT", 6_000, false],
      ["PT_SLP", 5_000, true],
    ]);
    expect(check.buckets.PT_SLP).toEqual({
      priorCents: 170_000,
      visitCents: 95_000,
      kxExceeded: true,
      reviewExceeded: false,
    });
    expect(check.warnings.map((w) => [w.code, w.bucket])).toEqual([["KX_THRESHOLD_EXCEEDED", "PT_SLP"]]);
  });

  it("exactly at the threshold is not past it; one cent more is", () => {
    const at = checkVisitThresholds(
      2026,
      { PT_SLP: 228_000, OT: 0 },
      [{ code: "97110", units: 1, duration: 15, modifiers: ["GP"] }],
      fees,
    );
    expect(at.lines[0]?.kxProposed).toBe(false);
    const over = checkVisitThresholds(
      2026,
      { PT_SLP: 228_001, OT: 0 },
      [{ code: "97110", units: 1, duration: 15, modifiers: ["GP"] }],
      fees,
    );
    expect(over.lines[0]?.kxProposed).toBe(true);
  });

  it("uses each year's own threshold: $2,410 in 2025, $2,330 in 2024", () => {
    const line = [{ code: "97110", units: 1, duration: 15, modifiers: ["GP"] }];
    expect(checkVisitThresholds(2025, { PT_SLP: 221_001, OT: 0 }, line, fees).lines[0]?.kxProposed).toBe(true);
    expect(checkVisitThresholds(2026, { PT_SLP: 221_001, OT: 0 }, line, fees).lines[0]?.kxProposed).toBe(false);
    expect(checkVisitThresholds(2024, { PT_SLP: 213_001, OT: 0 }, line, fees).lines[0]?.kxProposed).toBe(true);
  });

  it("past $3,000 warns of the targeted review", () => {
    const check = checkVisitThresholds(
      2026,
      { PT_SLP: 0, OT: 295_000 },
      [{ code: "97530", units: 1, duration: 15, modifiers: ["GO"] }],
      fees,
    );
    expect(check.buckets.OT.reviewExceeded).toBe(true);
    expect(check.warnings.map((w) => w.code)).toEqual(["KX_THRESHOLD_EXCEEDED", "REVIEW_THRESHOLD_EXCEEDED"]);
  });

  it("a line without a fee counts $0 and says so; without a discipline modifier it is not counted; 0 units is not billed", () => {
    const check = checkVisitThresholds(
      2026,
      none,
      [
        { code: "97018", units: 1, duration: 15, modifiers: ["GP"] },
        { code: "97110", units: 1, duration: 15, modifiers: ["59"] },
        { code: "97140", units: 0, duration: 15, modifiers: ["GP"] },
      ],
      fees,
    );
    expect(check.lines.map((l) => [l.bucket, l.allowedCents])).toEqual([
      ["PT_SLP", null],
      [null, 20_000],
      [null, 0],
    ]);
    expect(check.buckets.PT_SLP.visitCents).toBe(0);
    expect(check.warnings.map((w) => [w.code, w.line])).toEqual([
      ["FEE_MISSING", 0],
      ["DISCIPLINE_MODIFIER_MISSING", 1],
    ]);
  });

  it("a year the table does not know proposes nothing and says why", () => {
    const check = checkVisitThresholds(
      2031,
      { PT_SLP: 900_000, OT: 0 },
      [{ code: "97110", units: 1, duration: 15, modifiers: ["GP"] }],
      fees,
    );
    expect(check.thresholds).toBeNull();
    expect(check.lines[0]?.kxProposed).toBe(false);
    expect(check.warnings.map((w) => w.code)).toEqual(["THRESHOLDS_UNKNOWN_FOR_YEAR"]);
  });

  it("takes the plan of care's discipline for a line without GP, GO or GN, and proposes its modifier", () => {
    const check = checkVisitThresholds(
      2026,
      none,
      [
        { code: "97110", units: 1, duration: 15, modifiers: [] },
        { code: "97530", units: 1, duration: 15, modifiers: ["GO"] },
      ],
      fees,
      "PT",
    );
    expect(check.lines.map((l) => [l.discipline, l.bucket, l.disciplineModifierMissing, l.proposedModifiers])).toEqual([
      ["PT", "PT_SLP", true, ["GP"]],
      ["OT", "OT", false, []],
    ]);
    expect(check.buckets.PT_SLP.visitCents).toBe(20_000);
    const slp = checkVisitThresholds(
      2026,
      none,
      [{ code: "97110", units: 1, duration: 15, modifiers: [] }],
      fees,
      "SLP",
    );
    expect(slp.lines[0]?.proposedModifiers).toEqual(["GN"]);
  });

  it("brings CQ or CO when an assistant furnished more than 10% of a service's minutes, paid at 85%", () => {
    const line = (minutes: number, kind: "PTA" | "OTA" = "PTA", modifiers = ["GP"]) =>
      checkVisitThresholds(
        2026,
        none,
        [{ code: "97110", units: 4, duration: 60, modifiers, assistant: { kind, minutes } }],
        fees,
      ).lines[0];
    expect(line(12)).toMatchObject({ assistant: { kind: "PTA", minutes: 12, modifier: "CQ" }, paymentPercent: 85 });
    expect(line(12)?.proposedModifiers).toEqual(["CQ"]);
    expect(line(6)).toMatchObject({ assistant: null, paymentPercent: 100, proposedModifiers: [] }); // exactly 10%
    expect(line(7)?.assistant?.modifier).toBe("CQ");
    expect(line(5)?.assistant).toBeNull();
    expect(line(30, "OTA", ["GO"])?.proposedModifiers).toEqual(["CO"]);
    // Already on the line: nothing left to propose, still paid at 85%.
    expect(line(12, "PTA", ["GP", "CQ"])).toMatchObject({ proposedModifiers: [], paymentPercent: 85 });
  });
});
