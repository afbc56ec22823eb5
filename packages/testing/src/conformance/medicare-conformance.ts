import type { Storage, TherapyCharge } from "@openpractice/core";
import { beforeEach, describe, expect, it } from "vitest";
import type { StorageFixture } from "./storage-fixture.js";

const T0 = new Date("2026-10-01T09:00:00.000Z");

/**
 * The Medicare part of the storage contract: charges come back with ids; the year's totals per bucket, all of them
 * or up to a service date, never another patient's, year's or organisation's; the list by service date, then as
 * recorded.
 */
export function describeMedicareConformance(engine: string, current: () => { s: Storage; fx: StorageFixture }): void {
  describe("therapy charges", () => {
    let s: Storage;
    const charge = (over: Partial<TherapyCharge>): Omit<TherapyCharge, "id"> => ({
      organisationId: 1,
      patientId: 7,
      year: 2026,
      bucket: "PT_SLP",
      source: "visit",
      contextId: "ctx-1",
      serviceDate: "2026-03-02",
      code: "97110",
      units: 2,
      allowedCents: 6296,
      priced: true,
      kx: false,
      description: null,
      recordedBy: null,
      createdAt: T0,
      ...over,
    });
    beforeEach(async () => {
      s = current().s;
      for (const id of [1, 2])
        await s.repositories.organisations.ensure({ id, name: `Org ${id}`, plan: "free", now: T0 });
    });

    it(`[${engine}] stores charges with ids and sums each bucket of a patient's year, up to a date when asked`, async () => {
      const stored = await s.transaction((tx) =>
        tx.therapyCharges.insert([
          charge({ serviceDate: "2026-03-09", code: "97140", allowedCents: 3000 }),
          charge({ serviceDate: "2026-03-02" }),
          charge({ bucket: "OT", serviceDate: "2026-03-02", code: "97530", allowedCents: 4200, kx: true }),
          charge({
            source: "elsewhere",
            contextId: null,
            code: null,
            units: 0,
            serviceDate: "2026-01-15",
            allowedCents: 50_000,
            description: "Hospital outpatient PT",
            recordedBy: 101,
          }),
        ]),
      );
      expect(stored.map((c) => c.id)).toEqual([...new Set(stored.map((c) => c.id))]);
      expect(stored.every((c) => Number.isSafeInteger(c.id) && c.id > 0)).toBe(true);
      // Others: another patient, another year, another organisation.
      await s.transaction((tx) =>
        tx.therapyCharges.insert([
          charge({ patientId: 8, allowedCents: 1 }),
          charge({ year: 2025, serviceDate: "2025-12-30", allowedCents: 2 }),
          charge({ organisationId: 2, allowedCents: 4 }),
        ]),
      );
      const r = s.repositories.therapyCharges;
      expect(await r.totals(1, 7, 2026)).toEqual({ PT_SLP: 59_296, OT: 4200 });
      expect(await r.totals(1, 7, 2026, "2026-03-02")).toEqual({ PT_SLP: 56_296, OT: 4200 });
      expect(await r.totals(1, 7, 2026, "2026-03-01")).toEqual({ PT_SLP: 50_000, OT: 0 });
      expect(await r.totals(1, 9, 2026)).toEqual({ PT_SLP: 0, OT: 0 });
      const listed = await r.list(1, 7, 2026);
      expect(listed.map((c) => [c.serviceDate, c.code, c.allowedCents])).toEqual([
        ["2026-01-15", null, 50_000],
        ["2026-03-02", "97110", 6296],
        ["2026-03-02", "97530", 4200],
        ["2026-03-09", "97140", 3000],
      ]);
      expect(listed[0]).toEqual(stored[3]);
      expect(listed[2]).toMatchObject({ bucket: "OT", kx: true, priced: true, source: "visit", contextId: "ctx-1" });
    });

    it(`[${engine}] a rolled-back completion leaves no charge`, async () => {
      await expect(
        s.transaction(async (tx) => {
          await tx.therapyCharges.insert([charge({})]);
          throw new Error("completion refused");
        }),
      ).rejects.toThrow("completion refused");
      expect(await s.repositories.therapyCharges.list(1, 7, 2026)).toEqual([]);
    });
  });
}
