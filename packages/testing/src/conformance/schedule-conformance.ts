import type { ProviderSchedule, Storage } from "@openpractice/core";
import { beforeEach, describe, expect, it } from "vitest";
import type { StorageFixture } from "./storage-fixture.js";

const T0 = new Date("2026-09-01T09:00:00.000Z");

/** The schedules part of the storage contract: round trips, scoping, in-force and list filters, order, ending. */
export function describeScheduleConformance(engine: string, current: () => { s: Storage; fx: StorageFixture }): void {
  describe("provider schedules", () => {
    let s: Storage;
    let clinic: number;
    let provider: number;
    const draft = (over: Partial<ProviderSchedule> = {}): Omit<ProviderSchedule, "id"> => ({
      organisationId: 1,
      providerId: provider,
      clinicId: clinic,
      weekdays: ["MO", "WE"],
      startTime: "09:00",
      endTime: "17:00",
      effectiveFrom: "2027-01-04",
      effectiveUntil: null,
      rrule: null,
      replacesId: null,
      replacedById: null,
      createdAt: T0,
      updatedAt: T0,
      ...over,
    });

    beforeEach(async () => {
      s = current().s;
      for (const id of [1, 2])
        await s.repositories.organisations.ensure({ id, name: `Org ${id}`, plan: "free", now: T0 });
      clinic = (await s.repositories.organisations.ensureClinic({ organisationId: 1, name: "Main", timeZone: "UTC" }))
        .id;
      provider = (
        await s.repositories.organisations.upsertProvider({
          organisationId: 1,
          userId: 7001,
          firstName: "Sam",
          lastName: "Hours",
          npi: null,
          supervisingUserId: null,
          clinicIds: [clinic],
        })
      ).id;
    });

    it(`[${engine}] round-trips a schedule (weekdays, rrule, dates, links); another organisation sees nothing`, async () => {
      const weekly = await s.repositories.schedules.insert(draft());
      expect(await s.repositories.schedules.findById(1, weekly.id)).toEqual(weekly);
      expect(await s.repositories.schedules.findById(2, weekly.id)).toBeUndefined();
      const ruled = await s.repositories.schedules.insert(
        draft({
          weekdays: [],
          rrule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU",
          effectiveUntil: "2027-12-31",
          replacesId: weekly.id,
        }),
      );
      expect(await s.repositories.schedules.findById(1, ruled.id)).toEqual(ruled);
    });

    it(`[${engine}] ends a schedule, and lists in force from a date and by page, newest first`, async () => {
      const a = await s.repositories.schedules.insert(draft({ effectiveFrom: "2027-01-04" }));
      const b = await s.repositories.schedules.insert(draft({ effectiveFrom: "2027-03-01", replacesId: a.id }));
      const later = new Date(T0.getTime() + 60_000);
      await s.repositories.schedules.end(1, a.id, "2027-02-28", b.id, later);
      await s.repositories.schedules.end(2, b.id, "2027-01-01", null, later); // another organisation: no effect
      expect(await s.repositories.schedules.findById(1, a.id)).toEqual({
        ...a,
        effectiveUntil: "2027-02-28",
        replacedById: b.id,
        updatedAt: later,
      });
      expect((await s.repositories.schedules.findById(1, b.id))?.effectiveUntil).toBeNull();
      expect((await s.repositories.schedules.listInForce(1, [provider], "2027-02-28")).map((x) => x.id)).toEqual([
        a.id,
        b.id,
      ]);
      expect((await s.repositories.schedules.listInForce(1, [provider], "2027-03-01")).map((x) => x.id)).toEqual([
        b.id,
      ]);
      expect(await s.repositories.schedules.listInForce(2, [provider], "2027-01-01")).toEqual([]);
      const page = await s.repositories.schedules.list(1, provider, { limit: 1, offset: 0 });
      expect([page.total, page.schedules.map((x) => x.id)]).toEqual([2, [b.id]]);
      const current = await s.repositories.schedules.list(1, provider, {
        endingOnOrAfter: "2027-03-01",
        limit: 10,
        offset: 0,
      });
      expect(current.schedules.map((x) => x.id)).toEqual([b.id]);
      const atOther = await s.repositories.schedules.list(1, provider, {
        clinicId: clinic + 1000,
        limit: 10,
        offset: 0,
      });
      expect(atOther).toEqual({ schedules: [], total: 0 });
      // A clinic restriction (inClinics) filters in the query too.
      expect(
        await s.repositories.schedules.list(1, provider, { inClinics: [clinic + 1000], limit: 10, offset: 0 }),
      ).toEqual({
        schedules: [],
        total: 0,
      });
      const restricted = await s.repositories.schedules.list(1, provider, { inClinics: [clinic], limit: 1, offset: 1 });
      expect([restricted.total, restricted.schedules.map((x) => x.id)]).toEqual([2, [a.id]]);
    });

    it(`[${engine}] stores blocks, finds them by their whole span, and removes them once`, async () => {
      const at = (iso: string) => new Date(iso);
      const oneOff = await s.repositories.blocks.insert({
        organisationId: 1,
        providerId: provider,
        startsAt: at("2027-01-04T15:00:00.000Z"),
        endsAt: at("2027-01-04T16:00:00.000Z"),
        lastEndsAt: at("2027-01-04T16:00:00.000Z"),
        reason: "Team meeting",
        timeZone: null,
        rrule: null,
        createdAt: T0,
        removedAt: null,
        exceptions: [],
        seriesId: null,
        version: 1,
      });
      const lunch = await s.repositories.blocks.insert({
        ...oneOff,
        startsAt: at("2027-01-04T18:00:00.000Z"),
        endsAt: at("2027-01-04T19:00:00.000Z"),
        lastEndsAt: at("2027-02-01T19:00:00.000Z"),
        reason: "Lunch",
        timeZone: "America/Chicago",
        rrule: "FREQ=DAILY;COUNT=29",
      });
      expect(await s.repositories.blocks.findById(1, lunch.id)).toEqual(lunch);
      expect(await s.repositories.blocks.findById(2, lunch.id)).toBeUndefined();
      const ids = async (from: string, to: string) =>
        (await s.repositories.blocks.listBetween(1, [provider], at(from), at(to))).map((b) => b.id);
      expect(await ids("2027-01-04T00:00:00Z", "2027-01-05T00:00:00Z")).toEqual([oneOff.id, lunch.id]);
      // A recurring block is found within its span, after its first occurrence.
      expect(await ids("2027-01-20T00:00:00Z", "2027-01-21T00:00:00Z")).toEqual([lunch.id]);
      expect(await ids("2027-02-02T00:00:00Z", "2027-02-03T00:00:00Z")).toEqual([]);
      // Touching is not meeting: the one-off ends at 16:00.
      expect(await ids("2027-01-04T16:00:00Z", "2027-01-04T17:00:00Z")).toEqual([]);
      expect(await s.repositories.blocks.remove(2, oneOff.id, T0)).toBe(false);
      expect(await s.repositories.blocks.remove(1, oneOff.id, T0)).toBe(true);
      expect(await s.repositories.blocks.remove(1, oneOff.id, T0)).toBe(false);
      expect((await s.repositories.blocks.findById(1, oneOff.id))?.removedAt).toEqual(T0);
      expect(await ids("2027-01-04T00:00:00Z", "2027-01-05T00:00:00Z")).toEqual([lunch.id]);

      // An edit: exceptions and series round-trip, compare-and-set on the version, never on a removed block.
      const edited = {
        ...lunch,
        reason: "Staff lunch",
        seriesId: oneOff.id,
        exceptions: [
          {
            occurrenceDate: "2027-01-06",
            kind: "modified" as const,
            startsAt: at("2027-01-06T19:00:00.000Z"),
            endsAt: at("2027-01-06T20:00:00.000Z"),
            reason: null,
          },
          { occurrenceDate: "2027-01-07", kind: "cancelled" as const, startsAt: null, endsAt: null, reason: "Closed" },
        ],
      };
      expect(await s.repositories.blocks.update(edited)).toBe(true);
      expect(await s.repositories.blocks.update(edited)).toBe(false);
      expect(await s.repositories.blocks.findById(1, lunch.id)).toEqual({ ...edited, version: lunch.version + 1 });
      expect(await s.repositories.blocks.update({ ...edited, organisationId: 2, version: lunch.version + 1 })).toBe(
        false,
      );
      expect(await s.repositories.blocks.update({ ...edited, exceptions: [], version: lunch.version + 1 })).toBe(true);
      expect((await s.repositories.blocks.findById(1, lunch.id))?.exceptions).toEqual([]);
      expect(await s.repositories.blocks.remove(1, lunch.id, T0)).toBe(true);
      expect(await s.repositories.blocks.update({ ...edited, version: lunch.version + 2 })).toBe(false);
    });
  });
}
