import {
  createPractice,
  type DomainError,
  patientFromDraft,
  toPatientRecord,
  type AppointmentRecord,
  type Principal,
  type Storage,
} from "@openpractice/core";
import { beforeEach, describe, expect, it } from "vitest";
import type { StorageFixture } from "./storage-fixture.js";
import { testPracticeKeys } from "./test-keys.js";

const T0 = new Date("2026-03-02T15:00:00.000Z");
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
const principal: Principal = {
  organisationId: 1,
  userId: 900,
  name: "Front desk",
  scopes: ["write"],
  clinicIds: [],
  roles: [],
};

/**
 * The appointment part of the storage contract: the repository's reads and
 * writes, its optimistic update, and the booking lock that keeps one doctor
 * from being booked twice by concurrent requests (through the core service,
 * on real connections). Runs inside runStorageConformance.
 */
export function describeAppointmentConformance(
  engine: string,
  current: () => { s: Storage; fx: StorageFixture },
): void {
  describe("appointments", () => {
    let s: Storage;
    let fx: StorageFixture;
    let ids: {
      clinic: number;
      otherClinic: number;
      patient: number;
      otherPatient: number;
      category: number;
      otherCategory: number;
      foreignCategory: number;
    };

    beforeEach(async () => {
      ({ s, fx } = current());
      const r = s.repositories;
      const clinic = await r.organisations.ensureClinic({
        organisationId: 1,
        name: "Main",
        timeZone: "America/New_York",
      });
      const otherClinic = await r.organisations.ensureClinic({
        organisationId: 1,
        name: "North",
        timeZone: "America/New_York",
      });
      await r.organisations.upsertProvider({
        organisationId: 1,
        userId: 101,
        firstName: "Dana",
        lastName: "Reyes",
        npi: null,
        supervisingUserId: null,
        clinicIds: [clinic.id],
      });
      await r.organisations.upsertProvider({
        organisationId: 1,
        userId: 102,
        firstName: "Sam",
        lastName: "Ortiz",
        npi: null,
        supervisingUserId: null,
        clinicIds: [clinic.id, otherClinic.id],
      });
      const p = await r.patients.insertIfAbsent(
        toPatientRecord(patientFromDraft({ firstName: "Ada", lastName: "Byron", dateOfBirth: "1980-01-01" }, 1, T0)),
      );
      const q = await r.patients.insertIfAbsent(
        toPatientRecord(patientFromDraft({ firstName: "Alan", lastName: "Turing", dateOfBirth: "1970-01-01" }, 1, T0)),
      );
      const cat = await r.catalog.ensureAppointmentCategory({
        organisationId: 1,
        name: "Evaluation",
        type: "IN_PERSON",
        durationMinutes: 60,
      });
      const cat2 = await r.catalog.ensureAppointmentCategory({
        organisationId: 1,
        name: "Follow-up",
        type: "TELEHEALTH",
        durationMinutes: 30,
      });
      const foreign = await r.catalog.ensureAppointmentCategory({
        organisationId: 2,
        name: "Evaluation",
        type: "IN_PERSON",
        durationMinutes: 60,
      });
      await r.catalog.ensureCancellationReason({
        organisationId: 1,
        reasonKey: "LATE",
        reasonLabel: "Late cancellation",
        cancellationFee: 40,
        status: "ACTIVE",
      });
      ids = {
        clinic: clinic.id,
        otherClinic: otherClinic.id,
        patient: p.patient.id,
        otherPatient: q.patient.id,
        category: cat.id,
        otherCategory: cat2.id,
        foreignCategory: foreign.id,
      };
    });

    const recordAt = (startMin: number, endMin: number, over: Partial<AppointmentRecord> = {}): AppointmentRecord => ({
      organisationId: 1,
      patientId: ids.patient,
      doctorId: 101,
      clinicId: ids.clinic,
      categoryIds: [ids.category],
      startsAt: at(startMin),
      endsAt: at(endMin),
      paymentMode: "SELF_PAY",
      serviceCaseId: null,
      teleHealthUrl: null,
      comments: null,
      appointmentNotes: null,
      status: "SCHEDULED",
      cancellation: null,
      createdBy: 900,
      createdAt: T0,
      updatedAt: T0,
      version: 1,
      ...over,
    });

    it(`[${engine}] insert and findById round-trip every field, scoped to the organisation`, async () => {
      const a = await s.repositories.appointments.insert(
        recordAt(0, 45, {
          categoryIds: [ids.otherCategory, ids.category],
          teleHealthUrl: "https://meet.example/x",
          comments: "c",
          appointmentNotes: "n",
        }),
      );
      const found = await s.repositories.appointments.findById(1, a.id);
      expect(found).toEqual({ ...a, categoryIds: [ids.category, ids.otherCategory].sort((x, y) => x - y) });
      expect(await s.repositories.appointments.findById(2, a.id)).toBeUndefined();
      const row = (await fx.probe.appointments()).find((r) => r.id === a.id);
      expect(row?.storedStartsAt).toBe("2026-03-02T15:00:00.000Z");
    });

    it(`[${engine}] the database refuses a doctor of another organisation`, async () => {
      await expect(s.repositories.appointments.insert(recordAt(0, 30, { doctorId: 999 }))).rejects.toThrow();
      expect(await fx.probe.appointments()).toHaveLength(0);
    });

    it(`[${engine}] update is compare-and-set on the version`, async () => {
      const a = await s.repositories.appointments.insert(recordAt(0, 30));
      const cancellation = {
        reasonKey: "LATE",
        reasonLabel: "Late",
        comment: null,
        fee: 12.5,
        cancelledAt: at(-10),
        cancelledBy: 900,
      };
      expect(
        await s.repositories.appointments.update({ ...a, status: "CANCELLED", cancellation, updatedAt: at(-10) }),
      ).toBe(true);
      expect(await s.repositories.appointments.update({ ...a, status: "CHECKED_IN" })).toBe(false);
      const stored = await s.repositories.appointments.findById(1, a.id);
      expect(stored).toMatchObject({ status: "CANCELLED", version: 2, cancellation });
    });

    it(`[${engine}] findOverlapping: half-open intervals, only the given statuses, except one id`, async () => {
      const a = await s.repositories.appointments.insert(recordAt(0, 60));
      await s.repositories.appointments.insert(recordAt(60, 90, { status: "CANCELLED" }));
      const q = {
        organisationId: 1,
        doctorId: 101,
        statuses: ["SCHEDULED", "CHECKED_IN", "IN_PROGRESS", "CHECKED_OUT"] as const,
      };
      expect((await s.repositories.appointments.findOverlapping({ ...q, startsAt: at(59), endsAt: at(61) }))?.id).toBe(
        a.id,
      );
      expect(
        await s.repositories.appointments.findOverlapping({ ...q, startsAt: at(60), endsAt: at(90) }),
      ).toBeUndefined();
      expect(
        await s.repositories.appointments.findOverlapping({ ...q, startsAt: at(-30), endsAt: at(0) }),
      ).toBeUndefined();
      expect(
        await s.repositories.appointments.findOverlapping({ ...q, startsAt: at(10), endsAt: at(20), exceptId: a.id }),
      ).toBeUndefined();
      expect(
        await s.repositories.appointments.findOverlapping({ ...q, doctorId: 102, startsAt: at(10), endsAt: at(20) }),
      ).toBeUndefined();
    });

    it(`[${engine}] list filters, sorts by start (or created_at, updated_at, either way) then id, pages and counts`, async () => {
      const a3 = await s.repositories.appointments.insert(
        recordAt(120, 150, { doctorId: 102, clinicId: ids.otherClinic, categoryIds: [ids.otherCategory] }),
      );
      const a1 = await s.repositories.appointments.insert(recordAt(0, 30));
      const a2 = await s.repositories.appointments.insert(
        recordAt(0, 30, { patientId: ids.otherPatient, status: "CHECKED_IN", doctorId: 102 }),
      );
      const base = { organisationId: 1, limit: 10, offset: 0 };
      const list = async (over: object) =>
        (await s.repositories.appointments.list({ ...base, ...over })).appointments.map((a) => a.id);
      expect(await list({})).toEqual([a1.id, a2.id, a3.id]);
      expect(await list({ doctorId: 102 })).toEqual([a2.id, a3.id]);
      expect(await list({ clinicId: ids.otherClinic })).toEqual([a3.id]);
      // A clinic restriction (inClinics) filters in the query: the page and its total count only those clinics.
      expect(await list({ inClinics: [ids.clinic] })).toEqual([a1.id, a2.id]);
      expect(await list({ inClinics: [ids.otherClinic, ids.clinic] })).toEqual([a1.id, a2.id, a3.id]);
      const restricted = await s.repositories.appointments.list({
        ...base,
        inClinics: [ids.clinic],
        limit: 1,
        offset: 1,
      });
      expect([restricted.appointments.map((a) => a.id), restricted.total]).toEqual([[a2.id], 2]);
      expect(await list({ patientId: ids.otherPatient })).toEqual([a2.id]);
      expect(await list({ statuses: ["CHECKED_IN", "CANCELLED"] })).toEqual([a2.id]);
      expect(await list({ categoryId: ids.otherCategory })).toEqual([a3.id]);
      expect(await list({ startsFrom: at(0), startsBefore: at(120) })).toEqual([a1.id, a2.id]);
      expect(await list({ organisationId: 2 })).toEqual([]);
      // Other orders (v2): descending start then id; created_at ties (one T0) fall back to id.
      expect(await list({ descending: true })).toEqual([a3.id, a2.id, a1.id]);
      expect(await list({ sort: "created_at" })).toEqual([a3.id, a1.id, a2.id].sort((x, y) => x - y));
      expect(await list({ sort: "updated_at", descending: true })).toEqual([a3.id, a1.id, a2.id].sort((x, y) => y - x));
      const paged = await s.repositories.appointments.list({ ...base, limit: 2, offset: 2 });
      expect(paged.appointments.map((a) => a.id)).toEqual([a3.id]);
      expect(paged.total).toBe(3);
      expect(paged.appointments[0]?.categoryIds).toEqual([ids.otherCategory]);
    });

    it(`[${engine}] history is appended and read back oldest first, per organisation`, async () => {
      const a = await s.repositories.appointments.insert(recordAt(0, 30));
      const entry = {
        organisationId: 1,
        appointmentId: a.id,
        fromStatus: null,
        toStatus: "SCHEDULED" as const,
        startsAt: a.startsAt,
        endsAt: a.endsAt,
        byUserId: 900,
        at: T0,
      };
      await s.repositories.appointments.appendHistory({ ...entry, action: "BOOK" });
      await s.repositories.appointments.appendHistory({
        ...entry,
        action: "CHECK_IN",
        fromStatus: "SCHEDULED",
        toStatus: "CHECKED_IN",
        at: at(1),
      });
      expect((await s.repositories.appointments.history(1, a.id)).map((e) => e.action)).toEqual(["BOOK", "CHECK_IN"]);
      expect(await s.repositories.appointments.history(2, a.id)).toEqual([]);
    });

    it(`[${engine}] lockDoctorSchedule reports whether the doctor exists in the organisation`, async () => {
      expect(await s.transaction((tx) => tx.appointments.lockDoctorSchedule(1, 101))).toBe(true);
      expect(await s.transaction((tx) => tx.appointments.lockDoctorSchedule(2, 101))).toBe(false);
    });

    it(`[${engine}] 10 simultaneous bookings of one doctor and slot: exactly one succeeds`, async () => {
      const practice = createPractice({ keys: testPracticeKeys(), storage: s, clock: { now: () => T0 } });
      const draft = {
        patientId: ids.patient,
        doctorId: 101,
        clinicId: ids.clinic,
        categoryIds: [ids.category],
        paymentMode: "SELF_PAY" as const,
      };
      // Different but overlapping times, so no unique index could be what refuses them.
      const results = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) =>
          practice.appointments.book(principal, { ...draft, startsAt: at(60 + i), endsAt: at(120 + i) }),
        ),
      );
      const booked = results.filter((r) => r.status === "fulfilled");
      const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
      expect(booked).toHaveLength(1);
      expect(refused.map((r) => (r.reason as DomainError).code)).toEqual(Array(9).fill("SCHEDULE_CONFLICT"));
      expect(await fx.probe.appointments()).toHaveLength(1);
      expect((await fx.probe.outboxEvents()).filter((e) => e.eventType === "appointment.created")).toHaveLength(1);
    });

    it(`[${engine}] 10 simultaneous cancellations: one cancels, nine are refused, one event`, async () => {
      const practice = createPractice({ keys: testPracticeKeys(), storage: s, clock: { now: () => T0 } });
      const { appointment: a } = await practice.appointments.book(principal, {
        patientId: ids.patient,
        doctorId: 101,
        clinicId: ids.clinic,
        categoryIds: [ids.category],
        paymentMode: "SELF_PAY",
        startsAt: at(60),
        endsAt: at(90),
      });
      const cancel = {
        action: "CANCEL" as const,
        cancellation: { reasonKey: "LATE", reasonLabel: "Late cancellation" },
      };
      const results = await Promise.allSettled(
        Array.from({ length: 10 }, () => practice.appointments.act(principal, a.id, cancel)),
      );
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      expect(
        results
          .filter((r) => r.status === "rejected")
          .map((r) => ((r as PromiseRejectedResult).reason as DomainError).code),
      ).toEqual(Array(9).fill("INVALID_TRANSITION"));
      expect((await fx.probe.outboxEvents()).filter((e) => e.eventType === "appointment.cancelled")).toHaveLength(1);
      expect(await fx.probe.appointmentHistory(a.id)).toHaveLength(2);
    });
  });
}
