import { DateTime, FixedOffsetZone, IANAZone } from "luxon";
import { bookableSlots, firstOverlap, occurrences, type Shift, shiftIssues, slotText } from "@openpractice/core";
import { describe, expect, it } from "vitest";

const shift = (over: Partial<Shift>): Shift => ({
  timeZone: "America/New_York",
  weekdays: ["SU"],
  start: "09:00",
  end: "17:00",
  effectiveFrom: "2026-01-01",
  effectiveUntil: null,
  rrule: null,
  ...over,
});
const slots = (shifts: Shift[], startDate: string, extra: Partial<Parameters<typeof bookableSlots>[0]> = {}) =>
  bookableSlots({ shifts, busy: [], timeZone: shifts[0]!.timeZone, startDate, days: 1, slotLength: 60, ...extra }).map(
    (d) => slotText(d, shifts[0]!.timeZone),
  );
const at = (iso: string) => new Date(iso);

describe("working hours across daylight saving time", () => {
  it("starts a 09:00-17:00 New York shift at 09:00 local on the day DST begins (2026-03-08) and the week before", () => {
    const sunday = shift({});
    expect(slots([sunday], "2026-03-01")).toEqual(
      ["09", "10", "11", "12", "13", "14", "15", "16"].map((h) => `2026-03-01T${h}:00:00-05:00`),
    );
    expect(slots([sunday], "2026-03-08")).toEqual(
      ["09", "10", "11", "12", "13", "14", "15", "16"].map((h) => `2026-03-08T${h}:00:00-04:00`),
    );
    const [day] = occurrences(sunday, at("2026-03-08T00:00:00Z"), at("2026-03-09T00:00:00Z"));
    expect(day).toEqual({ start: at("2026-03-08T13:00:00Z"), end: at("2026-03-08T21:00:00Z") });
  });

  it("starts it at 09:00 local on the day DST ends (2026-11-01)", () => {
    expect(slots([shift({})], "2026-10-25")[0]).toBe("2026-10-25T09:00:00-04:00");
    expect(slots([shift({})], "2026-11-01")).toEqual(
      ["09", "10", "11", "12", "13", "14", "15", "16"].map((h) => `2026-11-01T${h}:00:00-05:00`),
    );
  });

  it("counts real time through the skipped hour: 01:00-04:00 on 2026-03-08 is two hours", () => {
    expect(slots([shift({ start: "01:00", end: "04:00" })], "2026-03-08")).toEqual([
      "2026-03-08T01:00:00-05:00",
      "2026-03-08T03:00:00-04:00",
    ]);
    // And through the repeated hour: 00:00-03:00 on 2026-11-01 is four hours.
    expect(slots([shift({ start: "00:00", end: "03:00" })], "2026-11-01")).toHaveLength(4);
  });

  it("keeps one offset all year in a zone without DST (America/Phoenix, Asia/Kolkata)", () => {
    for (const date of ["2026-03-08", "2026-07-05", "2026-11-01"])
      expect(slots([shift({ timeZone: "America/Phoenix", end: "10:00" })], date)).toEqual([`${date}T09:00:00-07:00`]);
    expect(slots([shift({ timeZone: "Asia/Kolkata", end: "10:00" })], "2026-03-08")).toEqual([
      "2026-03-08T09:00:00+05:30",
    ]);
  });
});

describe("recurrence", () => {
  it("follows an every-other-week RRULE from effective_from, and stops at effective_until", () => {
    const fortnightly = shift({
      rrule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO",
      weekdays: [],
      effectiveFrom: "2026-01-05",
      effectiveUntil: "2026-02-20",
    });
    const days = occurrences(fortnightly, at("2026-01-01T00:00:00Z"), at("2026-04-01T00:00:00Z")).map((o) =>
      slotText(o.start, "America/New_York"),
    );
    expect(days).toEqual([
      "2026-01-05T09:00:00-05:00",
      "2026-01-19T09:00:00-05:00",
      "2026-02-02T09:00:00-05:00",
      "2026-02-16T09:00:00-05:00",
    ]);
  });

  it("is weekly on the weekdays without an RRULE, from effective_from on", () => {
    const weekdays = shift({ weekdays: ["MO", "WE"], effectiveFrom: "2026-06-03" });
    const days = occurrences(weekdays, at("2026-06-01T00:00:00Z"), at("2026-06-09T00:00:00Z")).map((o) =>
      o.start.toISOString().slice(0, 10),
    );
    expect(days).toEqual(["2026-06-03", "2026-06-08"]);
  });
});

describe("bookable slots", () => {
  const monday = shift({ weekdays: ["MO"], start: "09:00", end: "13:00" });
  const busy = (from: string, to: string) => ({ start: at(from), end: at(to) });

  it("leave out what is busy, and a slot may end where a block starts", () => {
    const got = slots([monday], "2026-06-01", {
      slotInterval: 30,
      busy: [busy("2026-06-01T15:00:00Z", "2026-06-01T16:00:00Z")], // 11:00-12:00 local
    });
    expect(got).toEqual([
      "2026-06-01T09:00:00-04:00",
      "2026-06-01T09:30:00-04:00",
      "2026-06-01T10:00:00-04:00",
      "2026-06-01T12:00:00-04:00",
    ]);
  });

  it("honour a block of several days that started before the range, nested and touching intervals", () => {
    const vacation = busy("2026-05-25T00:00:00Z", "2026-06-05T00:00:00Z");
    expect(slots([monday], "2026-06-01", { busy: [vacation] })).toEqual([]);
    const pieces = [
      busy("2026-06-01T13:00:00Z", "2026-06-01T16:00:00Z"),
      busy("2026-06-01T13:30:00Z", "2026-06-01T14:00:00Z"),
      busy("2026-06-01T16:00:00Z", "2026-06-01T16:30:00Z"),
    ];
    expect(slots([monday], "2026-06-01", { busy: pieces, slotLength: 30 })).toEqual(["2026-06-01T12:30:00-04:00"]);
  });

  it("count days in the clinic's zone, merge touching shifts, and skip starts before notBefore", () => {
    const morning = shift({ weekdays: ["MO"], start: "09:00", end: "10:00" });
    const later = shift({ weekdays: ["MO"], start: "10:00", end: "11:00" });
    expect(slots([morning, later, morning], "2026-06-01")).toEqual([
      "2026-06-01T09:00:00-04:00",
      "2026-06-01T10:00:00-04:00",
    ]);
    expect(slots([morning, later], "2026-06-01", { notBefore: at("2026-06-01T13:30:00Z") })).toEqual([
      "2026-06-01T10:00:00-04:00",
    ]);
    expect(slots([morning], "2026-06-01", { days: 14 })).toHaveLength(2);
  });
});

describe("shift validation names the field", () => {
  // With an RRULE the days come from its BYDAY: the weekdays are left out unless a case sets them.
  const reasons = (s: Partial<Shift>) =>
    shiftIssues(shift({ ...(s.rrule ? { weekdays: [] } : {}), ...s })).map((i) => `${i.field}: ${i.reason}`);

  it("accepts a usable shift", () => {
    expect(reasons({})).toEqual([]);
    expect(reasons({ rrule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO", effectiveUntil: "2026-12-31" })).toEqual([]);
    expect(reasons({ rrule: "RRULE:FREQ=DAILY;COUNT=10" })).toEqual([]);
  });

  it("refuses end before start, bad times, zones and dates", () => {
    expect(reasons({ start: "17:00", end: "09:00" })).toEqual([
      "endTime: must be after the start time on the same day",
    ]);
    expect(reasons({ start: "9am" })).toEqual(["startTime: must be HH:MM (24-hour)"]);
    expect(reasons({ timeZone: "Mars/Olympus" })).toEqual(["timeZone: must be an IANA time zone"]);
    expect(reasons({ effectiveFrom: "2026-02-30" })).toEqual(["effectiveFrom: must be a date (YYYY-MM-DD)"]);
    expect(reasons({ effectiveUntil: "2025-12-31" })).toEqual([
      "effectiveUntil: must not be before the effective start",
    ]);
    expect(reasons({ weekdays: [] })).toEqual(["weekdays: must name at least one day"]);
    expect(reasons({ weekdays: ["MO"], rrule: "FREQ=DAILY;COUNT=3" })).toEqual([
      "weekdays: must be left out with an RRULE (its BYDAY names the days)",
    ]);
  });

  it("refuses a malformed, unbounded, hourly or time-setting RRULE", () => {
    expect(reasons({ rrule: "FREQ=SOMETIMES" })[0]).toMatch(/^rrule: is not an RFC 5545 RRULE/);
    expect(reasons({ rrule: "FREQ=WEEKLY;BYDAY=MO" })).toEqual([
      "rrule: is unbounded: give UNTIL or COUNT, or an effective end date",
    ]);
    expect(reasons({ rrule: "FREQ=HOURLY;COUNT=3" })).toEqual(["rrule: FREQ must be DAILY, WEEKLY or MONTHLY"]);
    expect(reasons({ rrule: "FREQ=DAILY;COUNT=3;BYHOUR=9" })).toEqual([
      "rrule: must not set BYHOUR, BYMINUTE or BYSECOND: the start and end times do",
    ]);
  });
});

describe("overlapping shifts of one provider", () => {
  const a = shift({ weekdays: ["MO"], start: "09:00", end: "13:00", effectiveFrom: "2026-06-01" });

  it("finds the first shared moment, across zones", () => {
    const b = shift({ weekdays: ["MO"], start: "12:00", end: "17:00", effectiveFrom: "2026-06-10" });
    expect(firstOverlap(a, b)).toEqual({ start: at("2026-06-15T16:00:00Z"), end: at("2026-06-15T17:00:00Z") });
    // 09:00-10:00 in Chicago is 10:00-11:00 in New York.
    const chicago = shift({ timeZone: "America/Chicago", weekdays: ["MO"], start: "09:00", end: "10:00" });
    const newYork = shift({ weekdays: ["MO"], start: "10:30", end: "11:00" });
    expect(firstOverlap(chicago, newYork)?.start).toEqual(at("2026-01-05T15:30:00Z"));
  });

  it("finds none on other days, in alternating weeks, after one ended, or when they only touch", () => {
    expect(firstOverlap(a, shift({ weekdays: ["TU"], effectiveFrom: "2026-06-01" }))).toBeNull();
    const odd = shift({
      rrule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO",
      effectiveFrom: "2026-06-01",
      effectiveUntil: "2027-06-01",
    });
    const even = shift({
      rrule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO",
      effectiveFrom: "2026-06-08",
      effectiveUntil: "2027-06-01",
    });
    expect(firstOverlap(odd, even)).toBeNull();
    expect(firstOverlap(odd, shift({ weekdays: ["MO"], effectiveFrom: "2026-06-08" }))?.start).toEqual(
      at("2026-06-15T13:00:00Z"),
    );
    expect(
      firstOverlap({ ...a, effectiveUntil: "2026-06-30" }, shift({ weekdays: ["MO"], effectiveFrom: "2026-07-01" })),
    ).toBeNull();
    expect(firstOverlap(a, shift({ weekdays: ["MO"], start: "13:00", end: "15:00" }))).toBeNull();
  });
});

describe("slot text", () => {
  it("writes what Luxon's toISO writes (suppressMilliseconds), offsets with quarter and half hours, Z for UTC, across transitions", () => {
    const zones = [
      "America/New_York",
      "UTC",
      "Asia/Kolkata",
      "America/St_Johns",
      "Australia/Lord_Howe",
      "Asia/Kathmandu",
      "Europe/London",
    ];
    const from = Date.parse("2027-01-01T00:00:00Z");
    for (const zone of zones)
      for (let t = from; t < from + 2 * 365 * 86_400_000; t += 37 * 60_000 + 17) {
        const at = new Date(t);
        const luxon = DateTime.fromJSDate(at, {
          zone: FixedOffsetZone.instance(IANAZone.create(zone).offset(t)),
        }).toISO({
          suppressMilliseconds: true,
        });
        if (slotText(at, zone) !== luxon) expect(`${zone} ${at.toISOString()} ${slotText(at, zone)}`).toBe(luxon);
      }
    expect(slotText(new Date("2027-03-14T13:00:00Z"), "America/New_York")).toBe("2027-03-14T09:00:00-04:00");
    expect(slotText(new Date("2027-06-01T09:00:00Z"), "UTC")).toBe("2027-06-01T09:00:00Z");
  });
});
