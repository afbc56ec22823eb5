import { createPractice, DomainError, type Practice, type Principal } from "@openpractice/core";
import { MemoryStorage } from "@openpractice/testing";
import { beforeEach, describe, expect, it } from "vitest";
import { testPracticeKeys } from "../support/practice-keys.js";

const principal: Principal = {
  organisationId: 1,
  userId: 101,
  name: "Front desk",
  scopes: ["read", "write"],
  clinicIds: [],
  roles: [],
};

const refusal = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (error) {
    if (error instanceof DomainError) return { code: error.code, fields: error.details?.issues };
    throw error;
  }
  throw new Error("expected a refusal");
};

// Series edits of recurring blocks (issue 49, part 2) over the in-memory store: a weekly Wednesday lunch 12:00-13:00
// in Chicago from 2031-03-05 (eight times; the clocks go forward on 2031-03-09), edited with each scope, and the
// slots around noon that follow each edit.
describe("recurring block series edits", () => {
  const clock = { now: () => new Date("2031-03-01T12:00:00Z") };
  let storage: MemoryStorage;
  let practice: Practice;
  const ids = { clinic: 0, provider: 0, block: 0 };

  /** The 30-minute slots of the day between 11:00 and 14:00 local, as HH:MM. */
  const noonSlots = async (date: string) => {
    const [found] = await practice.slots.find(principal, {
      providerIds: [ids.provider],
      clinicId: ids.clinic,
      slotLength: 30,
      startDate: date,
      days: 1,
    });
    return (found?.slots ?? [])
      .map((s) =>
        new Intl.DateTimeFormat("en-GB", { timeZone: "America/Chicago", hour: "2-digit", minute: "2-digit" }).format(s),
      )
      .filter((t) => t >= "11:00" && t < "14:00");
  };

  beforeEach(async () => {
    storage = new MemoryStorage();
    practice = createPractice({ keys: testPracticeKeys(), storage, clock });
    await storage.repositories.organisations.ensure({ id: 1, name: "Org", plan: "free", now: clock.now() });
    ids.clinic = (await practice.clinics.create(principal, { name: "Chicago", timeZone: "America/Chicago" })).id;
    ids.provider = (
      await practice.providers.create(principal, {
        userId: 701,
        firstName: "Ada",
        lastName: "A",
        clinicIds: [ids.clinic],
      })
    ).id;
    await practice.schedules.create(principal, ids.provider, {
      clinicId: ids.clinic,
      weekdays: ["WE"],
      startTime: "09:00",
      endTime: "17:00",
      effectiveFrom: "2031-03-01",
    });
    ids.block = (
      await practice.blocks.create(principal, ids.provider, {
        startsAt: new Date("2031-03-05T18:00:00Z"),
        endsAt: new Date("2031-03-05T19:00:00Z"),
        reason: "Lunch",
        timeZone: "America/Chicago",
        rrule: "FREQ=WEEKLY;BYDAY=WE;COUNT=8",
      })
    ).block.id;
  });

  it("blocks noon every Wednesday, on both sides of the clock change", async () => {
    expect(await noonSlots("2031-03-05")).toEqual(["11:00", "11:30", "13:00", "13:30"]);
    expect(await noonSlots("2031-03-12")).toEqual(["11:00", "11:30", "13:00", "13:30"]);
  });

  it("this: moves one occurrence (an exception) and leaves the others", async () => {
    const edited = await practice.blockSeries.edit(principal, ids.block, {
      scope: "this",
      occurrenceDate: "2031-03-12",
      startTime: "13:00",
      endTime: "14:00",
    });
    expect(edited.block.exceptions).toEqual([
      {
        occurrenceDate: "2031-03-12",
        kind: "modified",
        startsAt: new Date("2031-03-12T18:00:00Z"),
        endsAt: new Date("2031-03-12T19:00:00Z"),
        reason: null,
      },
    ]);
    expect(await noonSlots("2031-03-12")).toEqual(["11:00", "11:30", "12:00", "12:30"]);
    expect(await noonSlots("2031-03-19")).toEqual(["11:00", "11:30", "13:00", "13:30"]);
    // Back to the series' times: the exception goes.
    const back = await practice.blockSeries.edit(principal, ids.block, {
      scope: "this",
      occurrenceDate: "2031-03-12",
      startTime: "12:00",
      endTime: "13:00",
    });
    expect(back.block.exceptions).toEqual([]);
  });

  it("all: moves the series, except what an exception changed itself", async () => {
    await practice.blockSeries.edit(principal, ids.block, {
      scope: "this",
      occurrenceDate: "2031-03-12",
      startTime: "11:00",
    });
    await practice.blockSeries.edit(principal, ids.block, {
      scope: "this",
      occurrenceDate: "2031-03-19",
      reason: "Team lunch",
    });
    const all = await practice.blockSeries.edit(principal, ids.block, {
      scope: "all",
      startTime: "12:30",
      endTime: "13:30",
      reason: "Staff lunch",
    });
    expect(all.block).toMatchObject({ reason: "Staff lunch", startsAt: new Date("2031-03-05T18:30:00Z") });
    // 03-12 kept its own times (11:00-13:00: both are held once either changed); 03-19 kept its reason and moved.
    expect(await noonSlots("2031-03-12")).toEqual(["13:00", "13:30"]);
    expect(await noonSlots("2031-03-19")).toEqual(["11:00", "11:30", "12:00", "13:30"]);
    expect((await storage.repositories.blocks.findById(1, ids.block))?.exceptions.map((e) => e.reason)).toEqual([
      null,
      "Team lunch",
    ]);
  });

  it("this_and_following: splits the series; the old part ends, a new one starts with the change", async () => {
    const split = await practice.blockSeries.edit(principal, ids.block, {
      scope: "this_and_following",
      occurrenceDate: "2031-03-26",
      startTime: "13:00",
      endTime: "14:00",
    });
    expect(split.block.rrule).toBe("FREQ=WEEKLY;BYDAY=WE;COUNT=3");
    expect(split.created).toMatchObject({ rrule: "FREQ=WEEKLY;BYDAY=WE;COUNT=5", seriesId: ids.block });
    expect(await noonSlots("2031-03-19")).toEqual(["11:00", "11:30", "13:00", "13:30"]);
    expect(await noonSlots("2031-03-26")).toEqual(["11:00", "11:30", "12:00", "12:30"]);
    expect(await noonSlots("2031-04-23")).toEqual(["11:00", "11:30", "12:00", "12:30"]);
    expect(await noonSlots("2031-04-30")).toEqual(["11:00", "11:30", "12:00", "12:30", "13:00", "13:30"]);
  });

  it("deletes with each scope, and queues the freed time for the waitlist", async () => {
    const queued = async () =>
      (
        await storage.repositories.jobs.claim("scheduling.time-freed", {
          limit: 100,
          now: new Date("2031-12-31"),
          leaseMs: 1,
          leaseToken: `t${Math.random()}`,
        })
      ).length;
    await practice.blockSeries.remove(principal, ids.block, { scope: "this", occurrenceDate: "2031-03-12" });
    expect(await noonSlots("2031-03-12")).toEqual(["11:00", "11:30", "12:00", "12:30", "13:00", "13:30"]);
    expect(await queued()).toBe(1);
    await practice.blockSeries.remove(principal, ids.block, {
      scope: "this_and_following",
      occurrenceDate: "2031-03-26",
    });
    expect(await noonSlots("2031-03-19")).toEqual(["11:00", "11:30", "13:00", "13:30"]);
    expect(await noonSlots("2031-03-26")).toEqual(["11:00", "11:30", "12:00", "12:30", "13:00", "13:30"]);
    expect(await queued()).toBeGreaterThanOrEqual(1);
    await practice.blockSeries.remove(principal, ids.block, { scope: "all" });
    expect(await noonSlots("2031-03-05")).toEqual(["11:00", "11:30", "12:00", "12:30", "13:00", "13:30"]);
    expect((await refusal(practice.blockSeries.remove(principal, ids.block, { scope: "all" }))).code).toBe(
      "BLOCK_NOT_FOUND",
    );
  });

  it("an occurrence moved earlier than the series' start still blocks its time (lookups reach a day back)", async () => {
    await practice.blockSeries.edit(principal, ids.block, {
      scope: "this",
      occurrenceDate: "2031-03-05",
      startTime: "09:00",
      endTime: "10:00",
    });
    const [found] = await practice.slots.find(principal, {
      providerIds: [ids.provider],
      clinicId: ids.clinic,
      slotLength: 30,
      startDate: "2031-03-05",
      days: 1,
    });
    const times = (found?.slots ?? []).map((s) => s.toISOString().slice(11, 16));
    expect(times).not.toContain("15:00");
    expect(times).not.toContain("15:30");
    expect(times).toContain("18:00");
    const listed = await practice.blockSeries.occurrences(principal, {
      from: new Date("2031-03-05T14:00:00Z"),
      to: new Date("2031-03-05T16:00:00Z"),
    });
    expect(listed.map((o) => o.occurrenceDate)).toEqual(["2031-03-05"]);
  });

  it("a series edit never leaves an exception ending before it starts; a cancelled occurrence cannot be edited", async () => {
    await practice.blockSeries.edit(principal, ids.block, {
      scope: "this",
      occurrenceDate: "2031-03-12",
      startTime: "12:30",
    });
    await practice.blockSeries.edit(principal, ids.block, { scope: "all", startTime: "09:00", endTime: "10:00" });
    // 03-12 keeps 12:30-13:00 whole.
    expect(await noonSlots("2031-03-12")).toEqual(["11:00", "11:30", "12:00", "13:00", "13:30"]);
    await practice.blockSeries.remove(principal, ids.block, { scope: "this", occurrenceDate: "2031-03-19" });
    const refused = await refusal(
      practice.blockSeries.edit(principal, ids.block, { scope: "this", occurrenceDate: "2031-03-19", reason: "x" }),
    );
    expect(JSON.stringify(refused.fields)).toContain("cancelled");
  });

  it("refuses a recurring block whose rule sets its own times (an occurrence a day is what exceptions name)", async () => {
    const refused = await refusal(
      practice.blocks.create(principal, ids.provider, {
        startsAt: new Date("2031-03-05T15:00:00Z"),
        endsAt: new Date("2031-03-05T16:00:00Z"),
        reason: "Twice a day",
        timeZone: "America/Chicago",
        rrule: "FREQ=DAILY;BYHOUR=9,14;COUNT=4",
      }),
    );
    expect(JSON.stringify(refused.fields)).toContain("BYHOUR");
  });

  it("refuses a bad scope, a date not in the series, an end before the start, and changes nothing", async () => {
    const before = await storage.repositories.blocks.findById(1, ids.block);
    const cases: [Parameters<Practice["blockSeries"]["edit"]>[2], string][] = [
      [{ scope: "some", reason: "x" }, "scope"],
      [{ scope: "this", reason: "x" }, "occurrenceDate"],
      [{ scope: "this", occurrenceDate: "2031-03-13", reason: "x" }, "occurrenceDate"],
      [{ scope: "this", occurrenceDate: "2031-02-30", reason: "x" }, "occurrenceDate"],
      [{ scope: "this", occurrenceDate: "2031-03-12", startTime: "14:00", endTime: "13:00" }, "endTime"],
      [{ scope: "all", startTime: "25:00" }, "startTime"],
      [{ scope: "all" }, "reason"],
    ];
    for (const [edit, field] of cases) {
      const refused = await refusal(practice.blockSeries.edit(principal, ids.block, edit));
      expect({ edit, code: refused.code, field: JSON.stringify(refused.fields) }).toEqual({
        edit,
        code: "VALIDATION_FAILED",
        field: expect.stringContaining(field),
      });
    }
    expect(await storage.repositories.blocks.findById(1, ids.block)).toEqual(before);
  });
});
