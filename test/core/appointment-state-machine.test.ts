import {
  APPOINTMENT_ACTIONS,
  APPOINTMENT_STATUSES,
  APPOINTMENT_TRANSITIONS,
  createPractice,
  DomainError,
  patientFromDraft,
  toPatientRecord,
  type ActionInput,
  type AppointmentAction,
  type AppointmentStatus,
  type Practice,
  type Principal,
  type Storage,
} from "@openpractice/core";
import { MemoryStorage } from "@openpractice/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { testPracticeKeys } from "../support/practice-keys.js";

const START = new Date("2026-04-01T14:00:00.000Z");
const principal: Principal = {
  organisationId: 1,
  userId: 101,
  name: null,
  scopes: ["write"],
  clinicIds: [],
  roles: [],
};

/** How to put a fresh appointment into each status through the service itself (no row surgery). */
const PATH_TO: Record<AppointmentStatus, AppointmentAction[]> = {
  SCHEDULED: [],
  CHECKED_IN: ["CHECK_IN"],
  IN_PROGRESS: ["CHECK_IN", "START"],
  CHECKED_OUT: ["CHECK_IN", "CHECK_OUT"],
  CANCELLED: ["CANCEL"],
  NO_SHOW: ["NO_SHOW"],
};

let nextSlot = 0;
function inputFor(action: AppointmentAction): ActionInput {
  if (action === "CANCEL") return { action, cancellation: { reasonKey: "LATE", reasonLabel: "Late cancellation" } };
  if (action === "RESCHEDULE") {
    nextSlot += 1;
    return {
      action,
      startsAt: new Date(START.getTime() + nextSlot * 86_400_000),
      endsAt: new Date(START.getTime() + nextSlot * 86_400_000 + 1_800_000),
    };
  }
  return { action };
}

describe("appointment state machine (every row of APPOINTMENT_TRANSITIONS and every refused pair)", () => {
  let storage: Storage;
  let practice: Practice;
  let now: Date;
  let patientId: number;
  let clinicId: number;
  let categoryId: number;

  beforeEach(async () => {
    storage = new MemoryStorage();
    now = new Date(START.getTime() + 3_600_000); // after the start, so NO_SHOW's guard holds unless a test moves the clock
    practice = createPractice({ keys: testPracticeKeys(), storage, clock: { now: () => now } });
    const r = storage.repositories;
    await r.organisations.ensure({ id: 1, name: "o", plan: "free", now });
    clinicId = (await r.organisations.ensureClinic({ organisationId: 1, name: "Main", timeZone: "UTC" })).id;
    await r.organisations.upsertProvider({
      organisationId: 1,
      userId: 101,
      firstName: "D",
      lastName: "R",
      npi: null,
      supervisingUserId: null,
      clinicIds: [clinicId],
    });
    patientId = (
      await r.patients.insertIfAbsent(
        toPatientRecord(patientFromDraft({ firstName: "Ada", lastName: "Byron", dateOfBirth: "1980-01-01" }, 1, now)),
      )
    ).patient.id;
    categoryId = (
      await r.catalog.ensureAppointmentCategory({
        organisationId: 1,
        name: "Eval",
        type: "IN_PERSON",
        durationMinutes: 30,
      })
    ).id;
    await r.catalog.ensureCancellationReason({
      organisationId: 1,
      reasonKey: "LATE",
      reasonLabel: "Late",
      cancellationFee: 25,
      status: "ACTIVE",
    });
  });
  afterEach(async () => {
    await storage.close();
  });

  async function appointmentIn(status: AppointmentStatus, slot: number) {
    const startsAt = new Date(START.getTime() - slot * 7_200_000);
    let { appointment: a } = await practice.appointments.book(principal, {
      patientId,
      doctorId: 101,
      clinicId,
      categoryIds: [categoryId],
      paymentMode: "SELF_PAY",
      startsAt,
      endsAt: new Date(startsAt.getTime() + 1_800_000),
    });
    for (const action of PATH_TO[status])
      a = (await practice.appointments.act(principal, a.id, inputFor(action))).appointment;
    expect(a.status).toBe(status);
    return a;
  }

  const events = async () => (await storage.repositories.outbox.listPending(1000)).map((e) => e.eventType);

  it("the table only names known statuses and actions, and each (status, action) at most once", () => {
    const pairs = APPOINTMENT_TRANSITIONS.map((t) => `${t.from}/${t.action}`);
    expect(new Set(pairs).size).toBe(pairs.length);
    for (const t of APPOINTMENT_TRANSITIONS) {
      expect(APPOINTMENT_STATUSES).toContain(t.from);
      expect(APPOINTMENT_STATUSES).toContain(t.to);
      expect(APPOINTMENT_ACTIONS).toContain(t.action);
    }
  });

  APPOINTMENT_TRANSITIONS.forEach((t, row) => {
    it(`row ${row + 1}: ${t.from} --${t.action}--> ${t.to}, emits ${t.event}, writes history`, async () => {
      const a = await appointmentIn(t.from, row);
      const before = (await events()).length;
      const { appointment: after } = await practice.appointments.act(principal, a.id, inputFor(t.action));
      expect(after.status).toBe(t.to);
      expect(after.version).toBe(a.version + 1);
      expect(await practice.appointments.get(principal, a.id)).toMatchObject({ status: t.to, version: a.version + 1 });
      expect((await events()).slice(before)).toEqual([t.event]);
      const history = await practice.appointments.history(principal, a.id);
      expect(history.at(-1)).toMatchObject({ action: t.action, fromStatus: t.from, toStatus: t.to, byUserId: 101 });
      if (t.action === "CANCEL")
        expect(after.cancellation).toMatchObject({
          reasonKey: "LATE",
          reasonLabel: "Late cancellation",
          fee: 25,
          cancelledBy: 101,
        });
      if (t.action === "RESCHEDULE") expect(after.startsAt.getTime()).toBeGreaterThan(a.startsAt.getTime());
    });
  });

  const refused = APPOINTMENT_STATUSES.flatMap((status) =>
    APPOINTMENT_ACTIONS.filter(
      (action) => !APPOINTMENT_TRANSITIONS.some((t) => t.from === status && t.action === action),
    ).map((action) => [status, action] as const),
  );

  it("refuses exactly the pairs the table does not list (sanity: there are some in every status but SCHEDULED)", () => {
    expect(refused.length + APPOINTMENT_TRANSITIONS.length).toBe(
      APPOINTMENT_STATUSES.length * APPOINTMENT_ACTIONS.length,
    );
  });

  refused.forEach(([status, action], i) => {
    it(`refused: ${action} from ${status} names the status and changes nothing`, async () => {
      const a = await appointmentIn(status, 100 + i);
      const before = await events();
      const error = await practice.appointments.act(principal, a.id, inputFor(action)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DomainError);
      expect(error).toMatchObject({ code: "INVALID_TRANSITION", details: { current_status: status, action } });
      expect((error as DomainError).message).toContain(status);
      expect(await practice.appointments.get(principal, a.id)).toEqual(a);
      expect(await events()).toEqual(before);
    });
  });

  it("guard start_passed: NO_SHOW before the start time is refused and changes nothing", async () => {
    const a = await appointmentIn("SCHEDULED", 300);
    now = new Date(a.startsAt.getTime() - 60_000);
    await expect(practice.appointments.act(principal, a.id, { action: "NO_SHOW" })).rejects.toMatchObject({
      code: "INVALID_TRANSITION",
      details: { guard: "start_passed" },
    });
    expect(await practice.appointments.get(principal, a.id)).toEqual(a);
  });

  it("guard slot_free: RESCHEDULE onto another appointment of the doctor is refused and changes nothing", async () => {
    const a = await appointmentIn("SCHEDULED", 301);
    const b = await appointmentIn("SCHEDULED", 302);
    const error = await practice.appointments
      .act(principal, b.id, { action: "RESCHEDULE", startsAt: a.startsAt, endsAt: a.endsAt })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "SCHEDULE_CONFLICT", details: { conflicting_appointment_id: a.id } });
    expect(await practice.appointments.get(principal, b.id)).toEqual(b);
  });

  it("guard reason_active: an unknown or inactive reason is refused and changes nothing", async () => {
    await storage.repositories.catalog.ensureCancellationReason({
      organisationId: 1,
      reasonKey: "OLD",
      reasonLabel: "Old",
      cancellationFee: 0,
      status: "INACTIVE",
    });
    const a = await appointmentIn("SCHEDULED", 303);
    for (const reasonKey of ["NOPE", "OLD"]) {
      await expect(
        practice.appointments.act(principal, a.id, { action: "CANCEL", cancellation: { reasonKey, reasonLabel: "x" } }),
      ).rejects.toMatchObject({
        code: "UNKNOWN_REFERENCE",
        details: { issues: [{ field: "reasonKey" }] },
      });
    }
    expect(await practice.appointments.get(principal, a.id)).toEqual(a);
  });
});
