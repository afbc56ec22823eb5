import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Invalid271Error, parse271 } from "./x12-271.js";

const FIXTURES = new URL("../../../test/fixtures/x12/", import.meta.url);
const TRACE = "42-1790000000000";

/** A fixture as the clearinghouse simulator answers it: our trace, today's date, the member asked about. */
function fixture(name: string): string {
  return readFileSync(new URL(name, FIXTURES), "utf8")
    .replaceAll("{TRACE}", TRACE)
    .replaceAll("{CCYYMMDD}", "20261128")
    .replaceAll("{YYMMDD}", "261128")
    .replaceAll("{MEMBER}", "1EG4TE5MK73")
    .replaceAll("{LAST}", "DOE")
    .replaceAll("{FIRST}", "JANE")
    .replace(/~\n/g, "~");
}

// 271s as payers send them (005010X279A1), read field by field: visit limits stated as HSD quantities and EB09
// qualifiers, and AAA rejections in every loop with both AAA01 values.
describe("reading a 271", () => {
  it("reads a visit limit from HSD, the visits used from EB09 99, and completes the third figure", () => {
    const { result, rejections } = parse271(fixture("visits-hsd.edi"), TRACE);
    expect(rejections).toEqual([]);
    expect(result?.active).toBe(true);
    expect(result?.planStartDate).toBe("2026-01-01");
    // PT: HSD*VS*30***22 (30 visits a service year), EB09 99 22 used, EB06 29 VS 8 remaining: all three given.
    expect(result?.benefits.PT?.visits).toEqual({ limit: 30, used: 22, remaining: 8 });
    // OT (AD): limit from HSD, used from EB09 99, remaining computed.
    expect(result?.benefits.AD?.visits).toEqual({ limit: 20, used: 5, remaining: 15 });
    // Chiropractic: EB09 P6 (number of services) 12 as the limit, HSD05 29 as what remains, used computed.
    expect(result?.benefits["33"]?.visits).toEqual({ limit: 12, used: 8, remaining: 4 });
  });

  it("reads AAA01 Y in 2100A (payer unable to respond now, resubmission allowed) as a retryable rejection", () => {
    const { result, rejections } = parse271(fixture("payer-busy.edi"), TRACE);
    expect(result).toBeNull();
    expect(rejections).toEqual([
      {
        code: "42",
        reason: "Unable to respond at current time (payer unavailable)",
        followUp: "Resubmission allowed",
        loop: "2100A",
        validRequest: true,
        retryable: true,
        retryAfterDays: 0,
      },
    ]);
  });

  it("names the loop of a rejection before the payer's name (2000A), the provider's (2100B) and the subscriber's (2100C)", () => {
    expect(parse271(fixture("aaa-2000a.edi"), TRACE).rejections).toEqual([
      {
        code: "T4",
        reason: "Payer name or identifier missing",
        followUp: "Resubmission not allowed",
        loop: "2000A",
        validRequest: false,
        retryable: false,
        retryAfterDays: null,
      },
    ]);
    expect(parse271(fixture("aaa-2100b.edi"), TRACE).rejections).toEqual([
      {
        code: "51",
        reason: "Provider not on file",
        followUp: "Please wait 10 days and resubmit",
        loop: "2100B",
        validRequest: false,
        retryable: true,
        retryAfterDays: 10,
      },
    ]);
    expect(parse271(fixture("aaa-2100c.edi"), TRACE).rejections).toEqual([
      {
        code: "75",
        reason: "Subscriber/insured not found",
        followUp: "Please correct and resubmit",
        loop: "2100C",
        validRequest: false,
        retryable: false,
        retryAfterDays: null,
      },
    ]);
    // The fixtures the gateway tests use: 2100A with N and P, 2100C with N and C.
    expect(parse271(fixture("payer-unavailable.edi"), TRACE).rejections[0]).toMatchObject({
      loop: "2100A",
      validRequest: false,
      retryable: true,
      retryAfterDays: 0,
    });
    expect(parse271(fixture("rejected-member-id.edi"), TRACE).rejections[0]).toMatchObject({
      code: "72",
      loop: "2100C",
      retryable: false,
    });
  });

  it("keeps the answer when a rejection concerns one benefit (2110C), with the rejection beside it", () => {
    const { result, rejections } = parse271(fixture("aaa-2110c.edi"), TRACE);
    expect(result?.active).toBe(true);
    expect(result?.benefits.PT?.copay).toBe(20);
    expect(result?.benefits.AD).toBeUndefined();
    expect(rejections).toEqual([
      {
        code: "53",
        reason: "Inquired benefit inconsistent with provider type",
        followUp: "Please wait 30 days and resubmit",
        loop: "2110C",
        validRequest: true,
        retryable: true,
        retryAfterDays: 30,
      },
    ]);
  });

  it("reads AAA04 Y (do not resubmit) as not retryable, and an unknown code as unknown, not as a property", () => {
    const held = fixture("payer-busy.edi").replace("AAA*Y**42*R~", "AAA*Y**42*Y~");
    expect(parse271(held, TRACE).rejections[0]).toMatchObject({ retryable: false, retryAfterDays: null });
    const odd = fixture("payer-busy.edi").replace("AAA*Y**42*R~", "AAA*N**constructor*constructor~");
    expect(parse271(odd, TRACE).rejections[0]).toEqual({
      code: "constructor",
      reason: "Rejected (reason code constructor)",
      followUp: "constructor",
      loop: "2100A",
      validRequest: false,
      retryable: false,
      retryAfterDays: null,
    });
  });

  it("gives no result when the only benefit was the one rejected, and reads only year-long limits", () => {
    const only = fixture("aaa-2110c.edi")
      .replace("EB*1*IND*30^PT**MEDICARE PART B~", "")
      .replace("EB*B*IND*PT***27*20~", "")
      .replace(/SE\*(\d+)\*/, (_m, n) => `SE*${Number(n) - 2}*`);
    const answered = parse271(only, TRACE);
    expect(answered.result).toBeNull();
    expect(answered.rejections).toHaveLength(1);
    // The rejected AD benefit of the fixture leaves no trace beside the others.
    expect(Object.keys(parse271(fixture("aaa-2110c.edi"), TRACE).result?.benefits ?? {})).toEqual(["30", "PT"]);
    // "1 visit a day" (HSD05 7) and "per visit" (EB06 27) are no annual limit: 30 a service year stays.
    const daily = fixture("visits-hsd.edi")
      .replace("HSD*VS*30***22~", "HSD*VS*30***22~HSD*VS*1***7*1~")
      .replace(/SE\*(\d+)\*/, (_m, n) => `SE*${Number(n) + 1}*`);
    expect(parse271(daily, TRACE).result?.benefits.PT?.visits).toEqual({ limit: 30, used: 22, remaining: 8 });
  });

  it("still refuses a 271 with neither benefits nor rejections, or for another trace", () => {
    const empty = fixture("payer-busy.edi").replace("AAA*Y**42*R~", "").replace("SE*6*", "SE*5*");
    expect(() => parse271(empty, TRACE)).toThrow(Invalid271Error);
    expect(() => parse271(empty, TRACE)).toThrow("the 271 has neither benefits (EB) nor rejections (AAA)");
    expect(() => parse271(fixture("visits-hsd.edi"), "other-trace")).toThrow(/answers trace/);
  });
});
