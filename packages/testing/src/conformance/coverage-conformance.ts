import { type InsuranceCard, patientFromDraft, type Storage, toPatientRecord } from "@openpractice/core";
import { beforeEach, describe, expect, it } from "vitest";
import type { StorageFixture } from "./storage-fixture.js";

const T0 = new Date("2026-09-01T09:00:00.000Z");

/** Insurance cards as v2 coverages: every field round-trips, changes are written, deleted cards leave every read. */
export function describeCoverageConformance(engine: string, current: () => { s: Storage; fx: StorageFixture }): void {
  describe("insurance cards (coverages)", () => {
    let s: Storage;
    let patientId: number;
    const card = (over: Partial<InsuranceCard> = {}): Omit<InsuranceCard, "id"> => ({
      organisationId: 1,
      patientId,
      payer: { payerRegId: 7, name: "Aetna", payerId: "60054" },
      insuranceNumber: "W123",
      planStartDate: "2027-01-01",
      planEndDate: null,
      groupNumber: "G-1",
      planName: "Open Access",
      subscriber: { relationship: "spouse", firstName: "Jo", lastName: "Reyes", dateOfBirth: "1978-02-11" },
      priority: "primary",
      active: true,
      createdAt: T0,
      updatedAt: T0,
      ...over,
    });

    beforeEach(async () => {
      s = current().s;
      for (const id of [1, 2])
        await s.repositories.organisations.ensure({ id, name: `Org ${id}`, plan: "free", now: T0 });
      patientId = (
        await s.repositories.patients.insertIfAbsent(
          toPatientRecord(patientFromDraft({ firstName: "Cora", lastName: "Vega", dateOfBirth: "1990-06-01" }, 1, T0)),
        )
      ).patient.id;
    });

    it(`[${engine}] round-trips every field, writes changes, and leaves deleted cards out of every read`, async () => {
      const r = s.repositories.insuranceCards;
      const full = await r.insert(card());
      const v1 = await r.insert(
        card({
          payer: { payerRegId: null, name: "Local", payerId: null },
          groupNumber: null,
          planName: null,
          subscriber: { relationship: "self", firstName: null, lastName: null, dateOfBirth: null },
          priority: null,
        }),
      );
      expect(await r.findById(1, full.id)).toEqual(full);
      expect(await r.findById(1, v1.id)).toEqual(v1);
      expect(await r.findById(2, full.id)).toBeUndefined();
      const changed = {
        ...full,
        active: false,
        priority: "secondary" as const,
        planEndDate: "2027-12-31",
        updatedAt: new Date(T0.getTime() + 60_000),
      };
      await r.update(changed);
      expect(await r.findById(1, full.id)).toEqual(changed);
      expect(await r.delete(2, full.id, T0)).toBe(false);
      expect(await r.delete(1, full.id, T0)).toBe(true);
      expect(await r.delete(1, full.id, T0)).toBe(false);
      expect(await r.findById(1, full.id)).toBeUndefined();
      expect((await r.listByPatient(1, patientId)).map((c) => c.id)).toEqual([v1.id]);
    });
  });
}
