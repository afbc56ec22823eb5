import {
  type AppointmentRecord,
  type BulkExport,
  type BulkExportFile,
  patientFromDraft,
  type Storage,
  toPatientRecord,
} from "@openpractice/core";
import { beforeEach, describe, expect, it } from "vitest";
import type { StorageFixture } from "./storage-fixture.js";

const T0 = new Date("2026-10-01T09:00:00.000Z");
const T1 = new Date("2026-10-05T09:00:00.000Z");

const exportOf = (organisationId: number, id: string, over: Partial<BulkExport> = {}): BulkExport => ({
  id,
  organisationId,
  kind: "system",
  types: ["Patient", "Appointment"],
  since: null,
  requestUrl: "https://emr.example/fhir/R4/$export",
  requestedByUser: null,
  requestedByClient: "opc_analytics",
  inClinics: null,
  status: "queued",
  cursor: { typeIndex: 0, afterId: 0 },
  exported: 0,
  files: [],
  error: null,
  transactionTime: T0,
  updatedAt: T0,
  completedAt: null,
  expiresAt: null,
  ...over,
});

const fileOf = (position: number, storageKey: string): BulkExportFile => ({
  position,
  type: "Patient",
  storageKey,
  wrappedKey: `wrapped-${storageKey}`,
  count: 100 + position,
  sizeBytes: 4_000_000_000 + position,
});

/**
 * The bulk export part of the storage contract: exports and their files by organisation, a status change only from
 * the expected statuses (compare-and-set), the count in progress, expiry, the keys files name; and the export's
 * keyset reads: rows above an id in id order, changed after an instant, at the clinics and statuses asked, never
 * another organisation's.
 */
export function describeBulkExportConformance(engine: string, current: () => { s: Storage; fx: StorageFixture }): void {
  describe("bulk exports", () => {
    let s: Storage;
    beforeEach(async () => {
      s = current().s;
      for (const id of [1, 2])
        await s.repositories.organisations.ensure({ id, name: `Org ${id}`, plan: "free", now: T0 });
    });

    it(`[${engine}] keeps exports and files by organisation, changes status by compare-and-set, expires them`, async () => {
      const r = s.repositories.bulkExports;
      const id = "6f1c2b9e-0d4a-4c1e-9a51-3f0b7d2e8c10";
      await r.insert(exportOf(1, id, { inClinics: [3, 4], since: T0 }));
      await r.insert(
        exportOf(2, "0b1d6f2e-9c3a-4e5b-8a70-1c2d3e4f5a6b", { requestedByClient: null, requestedByUser: 7 }),
      );
      expect(await r.findById(2, id)).toBeUndefined();
      expect(await r.findById(1, id)).toEqual(exportOf(1, id, { inClinics: [3, 4], since: T0 }));
      expect(await r.countActive(1)).toBe(1);
      const running = exportOf(1, id, { status: "running", cursor: { typeIndex: 1, afterId: 2_000_000 }, exported: 7 });
      const start = { typeIndex: 0, afterId: 0 };
      expect(await r.update(running, { status: "completed", cursor: start })).toBe(false);
      expect(await r.update(running, { status: "queued", cursor: { typeIndex: 0, afterId: 5 } })).toBe(false);
      expect(await r.update(running, { status: "queued", cursor: start })).toBe(true);
      // The same change again: the status and cursor read are no longer the row's (a stale worker's slice).
      expect(await r.update(running, { status: "queued", cursor: start })).toBe(false);
      // Two files at one position: the second is refused.
      await r.addFile(1, id, fileOf(5, "key-x"));
      await expect(r.addFile(1, id, fileOf(5, "key-y"))).rejects.toThrow();
      await r.remove(1, id);
      await r.insert(exportOf(1, id, { inClinics: [3, 4], since: T0 }));
      expect(await r.update(running, { status: "queued", cursor: start })).toBe(true);
      await s.transaction(async (tx) => {
        await tx.bulkExports.addFile(1, id, fileOf(1, "key-b"));
        await tx.bulkExports.addFile(1, id, fileOf(0, "key-a"));
      });
      const found = await r.findById(1, id);
      expect(found?.files).toEqual([fileOf(0, "key-a"), fileOf(1, "key-b")]);
      expect(found?.cursor).toEqual({ typeIndex: 1, afterId: 2_000_000 });
      expect([...(await r.storageKeysInUse(["key-a", "key-c", "key-b"]))].sort()).toEqual(["key-a", "key-b"]);
      expect(await r.storageKeysInUse([])).toEqual(new Set());
      const done = { ...running, status: "completed" as const, completedAt: T1, expiresAt: T1 };
      expect(await r.update(done, { status: "running", cursor: running.cursor })).toBe(true);
      expect(await r.countActive(1)).toBe(0);
      expect(await r.expired(T0, 10)).toEqual([]);
      const due = await r.expired(T1, 10);
      expect(due.map((e) => [e.id, e.files.length])).toEqual([[id, 2]]);
      await r.remove(1, id);
      expect(await r.findById(1, id)).toBeUndefined();
      expect(await r.storageKeysInUse(["key-a"])).toEqual(new Set());
      // Cancel: only from the statuses given, in its organisation; stalled: active and unchanged since an instant.
      const other = "3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f";
      await r.insert(exportOf(1, other, { status: "running", updatedAt: T0 }));
      expect(await r.stalled(T0, 10)).toEqual([]);
      // Organisation 2's export, queued since T0, is stalled too (the housekeeping reads every organisation).
      expect((await r.stalled(T1, 10)).map((e) => e.id).sort()).toEqual(
        ["0b1d6f2e-9c3a-4e5b-8a70-1c2d3e4f5a6b", other].sort(),
      );
      expect(await r.cancel(2, other, ["running"], T1)).toBe(false);
      expect(await r.cancel(1, other, ["queued"], T1)).toBe(false);
      expect(await r.cancel(1, other, ["queued", "running"], T1)).toBe(true);
      expect(await r.findById(1, other)).toMatchObject({ status: "cancelled", expiresAt: T1, updatedAt: T1 });
      expect((await r.stalled(T1, 10)).map((e) => e.id)).toEqual(["0b1d6f2e-9c3a-4e5b-8a70-1c2d3e4f5a6b"]);
      expect(await r.cancel(1, other, ["queued", "running"], T1)).toBe(false);
    });

    it(`[${engine}] reads patients and appointments by id keyset, changed after an instant, by clinic and status`, async () => {
      const r = s.repositories;
      const patients: number[] = [];
      for (const [org, name, at] of [
        [1, "Ada", T0],
        [2, "Other", T1],
        [1, "Ben", T1],
        [1, "Cy", T0],
      ] as const)
        patients.push(
          (
            await r.patients.insertIfAbsent(
              toPatientRecord(
                patientFromDraft({ firstName: name, lastName: "Keyset", dateOfBirth: "1970-01-01" }, org, at),
              ),
            )
          ).patient.id,
        );
      const page = (afterId: number, limit: number, since: Date | null = null) =>
        r.bulkExportSource.patients({ organisationId: 1, afterId, limit, since });
      expect((await page(0, 2)).map((p) => p.firstName)).toEqual(["Ada", "Ben"]);
      expect((await page(patients[2] as number, 2)).map((p) => p.firstName)).toEqual(["Cy"]);
      expect((await page(0, 10, T0)).map((p) => p.firstName)).toEqual(["Ben"]);
      // Insurance cards: deleted ones left out, `since` by their last change.
      const card = (insuranceNumber: string, at: Date) =>
        r.insuranceCards.insert({
          organisationId: 1,
          patientId: patients[0] as number,
          payer: { payerRegId: null, name: "Local", payerId: null },
          insuranceNumber,
          planStartDate: null,
          planEndDate: null,
          groupNumber: null,
          planName: null,
          subscriber: { relationship: "self", firstName: null, lastName: null, dateOfBirth: null },
          priority: "primary",
          active: true,
          createdAt: at,
          updatedAt: at,
        });
      await card("OLD", T0);
      await card("NEW", T1);
      const gone = await card("GONE", T1);
      await r.insuranceCards.delete(1, gone.id, T1);
      const cards = (since: Date | null) =>
        r.bulkExportSource
          .insuranceCards({ organisationId: 1, afterId: 0, limit: 10, since })
          .then((rows) => rows.map((c) => c.insuranceNumber));
      expect(await cards(null)).toEqual(["OLD", "NEW"]);
      expect(await cards(T0)).toEqual(["NEW"]);
      const a = await r.organisations.ensureClinic({ organisationId: 1, name: "A", timeZone: "UTC" });
      const b = await r.organisations.ensureClinic({ organisationId: 1, name: "B", timeZone: "UTC" });
      await r.organisations.upsertProvider({
        organisationId: 1,
        userId: 101,
        firstName: "Dana",
        lastName: "Reyes",
        npi: null,
        supervisingUserId: null,
        clinicIds: [a.id, b.id],
      });
      const category = await r.catalog.ensureAppointmentCategory({
        organisationId: 1,
        name: "Follow-up",
        type: "IN_PERSON",
        durationMinutes: 30,
      });
      const book = (clinicId: number, status: AppointmentRecord["status"], at: Date) =>
        r.appointments.insert({
          organisationId: 1,
          patientId: patients[0] as number,
          doctorId: 101,
          clinicId,
          categoryIds: [category.id],
          startsAt: at,
          endsAt: new Date(at.getTime() + 1_800_000),
          paymentMode: "SELF_PAY",
          serviceCaseId: null,
          teleHealthUrl: null,
          comments: null,
          appointmentNotes: null,
          status,
          cancellation: null,
          createdBy: null,
          createdAt: at,
          updatedAt: at,
          version: 1,
        });
      await book(a.id, "SCHEDULED", T0);
      await book(b.id, "CHECKED_OUT", T1);
      await book(a.id, "CHECKED_OUT", T1);
      const appointments = (o: { inClinics?: number[]; statuses?: ("CHECKED_OUT" | "SCHEDULED")[]; since?: Date }) =>
        r.bulkExportSource
          .appointments({
            organisationId: 1,
            afterId: 0,
            limit: 10,
            since: o.since ?? null,
            inClinics: o.inClinics ?? null,
            statuses: o.statuses ?? null,
          })
          .then((rows) => rows.map((x) => `${x.clinicId === a.id ? "A" : "B"}:${x.status}`));
      expect(await appointments({})).toEqual(["A:SCHEDULED", "B:CHECKED_OUT", "A:CHECKED_OUT"]);
      const [first] = await r.bulkExportSource.appointments({
        organisationId: 1,
        afterId: 0,
        limit: 1,
        since: null,
        inClinics: null,
        statuses: null,
      });
      expect(first?.categoryIds).toEqual([category.id]);
      expect(await appointments({ inClinics: [a.id] })).toEqual(["A:SCHEDULED", "A:CHECKED_OUT"]);
      expect(await appointments({ statuses: ["CHECKED_OUT"], since: T0 })).toEqual(["B:CHECKED_OUT", "A:CHECKED_OUT"]);
      expect(
        await r.bulkExportSource.appointments({
          organisationId: 2,
          afterId: 0,
          limit: 10,
          since: null,
          inClinics: null,
          statuses: null,
        }),
      ).toEqual([]);
    });
  });
}
