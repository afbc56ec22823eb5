import { describe, expect, it } from "vitest";
import { type BlockException, blockOccurrences, occurrenceOn, seriesOccurrences, splitSeries } from "./block-series.js";

// A weekly Wednesday lunch, 12:00-13:00 in Chicago, eight times from 2031-03-05: the clocks go forward on Sunday
// 2031-03-09, so the first occurrence is 18:00 UTC and the rest 17:00 UTC.
const lunch = {
  startsAt: new Date("2031-03-05T18:00:00Z"),
  endsAt: new Date("2031-03-05T19:00:00Z"),
  timeZone: "America/Chicago",
  rrule: "FREQ=WEEKLY;BYDAY=WE;COUNT=8",
  reason: "Lunch",
};
const march = [new Date("2031-03-01T00:00:00Z"), new Date("2031-04-01T00:00:00Z")] as const;
const iso = (d: Date) => d.toISOString().slice(0, 16);

describe("recurring block series", () => {
  it("keeps the wall-clock time across the spring change", () => {
    expect(seriesOccurrences(lunch, [], ...march).map((o) => `${o.occurrenceDate} ${iso(o.start)}`)).toEqual([
      "2031-03-05 2031-03-05T18:00",
      "2031-03-12 2031-03-12T17:00",
      "2031-03-19 2031-03-19T17:00",
      "2031-03-26 2031-03-26T17:00",
    ]);
  });

  it("moves a modified occurrence, drops a cancelled one, and keeps the series' reason unless changed", () => {
    const exceptions: BlockException[] = [
      {
        occurrenceDate: "2031-03-12",
        kind: "modified",
        startsAt: new Date("2031-03-12T18:00:00Z"),
        endsAt: new Date("2031-03-12T19:30:00Z"),
        reason: null,
      },
      { occurrenceDate: "2031-03-19", kind: "cancelled", startsAt: null, endsAt: null, reason: null },
      { occurrenceDate: "2031-03-26", kind: "modified", startsAt: null, endsAt: null, reason: "Team lunch" },
    ];
    const listed = seriesOccurrences(lunch, exceptions, ...march);
    expect(listed.map((o) => [o.occurrenceDate, iso(o.start), iso(o.end), o.reason, o.modified])).toEqual([
      ["2031-03-05", "2031-03-05T18:00", "2031-03-05T19:00", "Lunch", false],
      ["2031-03-12", "2031-03-12T18:00", "2031-03-12T19:30", "Lunch", true],
      ["2031-03-26", "2031-03-26T17:00", "2031-03-26T18:00", "Team lunch", true],
    ]);
    // An edit of the whole series reaches what an exception did not change (here the reason of the moved one).
    const renamed = seriesOccurrences({ ...lunch, reason: "Staff lunch" }, exceptions, ...march);
    expect(renamed.map((o) => o.reason)).toEqual(["Staff lunch", "Staff lunch", "Team lunch"]);
  });

  it("lists an occurrence moved into the window from outside it", () => {
    const moved: BlockException = {
      occurrenceDate: "2031-03-26",
      kind: "modified",
      startsAt: new Date("2031-04-01T17:00:00Z"),
      endsAt: new Date("2031-04-01T18:00:00Z"),
      reason: null,
    };
    const april = seriesOccurrences(lunch, [moved], new Date("2031-04-01T00:00:00Z"), new Date("2031-04-03T00:00:00Z"));
    expect(april.map((o) => [o.occurrenceDate, iso(o.start)])).toEqual([
      ["2031-03-26", "2031-04-01T17:00"],
      ["2031-04-02", "2031-04-02T17:00"],
    ]);
  });

  it("finds an occurrence by its local date, and none on a day the rule skips", () => {
    expect(occurrenceOn(lunch, "2031-03-12")?.start.toISOString()).toBe("2031-03-12T17:00:00.000Z");
    expect(occurrenceOn(lunch, "2031-03-13")).toBeUndefined();
    expect(occurrenceOn(lunch, "2031-05-07")).toBeUndefined();
  });

  it("splits at an occurrence: the head keeps the earlier ones, the tail the rest", () => {
    const split = splitSeries(lunch, "2031-03-26");
    expect(split).toEqual({
      head: { rrule: "FREQ=WEEKLY;BYDAY=WE;COUNT=3" },
      tail: {
        startsAt: new Date("2031-03-26T17:00:00Z"),
        endsAt: new Date("2031-03-26T18:00:00Z"),
        rrule: "FREQ=WEEKLY;BYDAY=WE;COUNT=5",
      },
    });
    const head = seriesOccurrences({ ...lunch, rrule: split!.head!.rrule }, [], ...march);
    const tail = seriesOccurrences({ ...lunch, ...split!.tail }, [], new Date("2031-03-01"), new Date("2031-06-01"));
    expect(head.map((o) => o.occurrenceDate)).toEqual(["2031-03-05", "2031-03-12", "2031-03-19"]);
    expect(tail.map((o) => o.occurrenceDate)).toEqual([
      "2031-03-26",
      "2031-04-02",
      "2031-04-09",
      "2031-04-16",
      "2031-04-23",
    ]);
    expect(splitSeries(lunch, "2031-03-05")?.head).toBeNull();
    expect(splitSeries(lunch, "2031-03-06")).toBeUndefined();
  });

  it("splits an UNTIL-bounded series keeping its UNTIL on the tail, across the autumn change", () => {
    const autumn = {
      ...lunch,
      startsAt: new Date("2031-10-22T17:00:00Z"),
      endsAt: new Date("2031-10-22T18:00:00Z"),
      rrule: "FREQ=WEEKLY;BYDAY=WE;UNTIL=20311120T000000Z",
    };
    const split = splitSeries(autumn, "2031-11-05");
    expect(split?.head?.rrule).toBe("FREQ=WEEKLY;BYDAY=WE;COUNT=2");
    expect(split?.tail.startsAt.toISOString()).toBe("2031-11-05T18:00:00.000Z");
    expect(split?.tail.rrule).toContain("UNTIL=20311120T000000Z");
  });

  it("holds the time of the series with its exceptions applied (what slots and placement read)", () => {
    const exceptions: BlockException[] = [
      { occurrenceDate: "2031-03-19", kind: "cancelled", startsAt: null, endsAt: null, reason: null },
      {
        occurrenceDate: "2031-03-26",
        kind: "modified",
        startsAt: new Date("2031-03-26T19:00:00Z"),
        endsAt: new Date("2031-03-26T20:00:00Z"),
        reason: null,
      },
    ];
    const held = blockOccurrences({ ...lunch, exceptions }, new Date("2031-03-15"), new Date("2031-04-01"));
    expect(held.map((o) => iso(o.start))).toEqual(["2031-03-26T19:00"]);
    expect(
      blockOccurrences({ ...lunch, exceptions: [] }, new Date("2031-03-15"), new Date("2031-04-01")).map((o) =>
        iso(o.start),
      ),
    ).toEqual(["2031-03-19T17:00", "2031-03-26T17:00"]);
  });
});
