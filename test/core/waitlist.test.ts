import {
  allowedWaitlistTriggers,
  createPractice,
  DomainError,
  type Practice,
  type Principal,
  type Storage,
  type WaitlistRequestDraft,
  WAITLIST_STATUSES,
  WAITLIST_TRANSITIONS,
  WAITLIST_TRIGGERS,
  waitlistTransitions,
} from "@openpractice/core";
import { MemoryStorage } from "@openpractice/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { testPracticeKeys } from "../support/practice-keys.js";

const principal: Principal = {
  organisationId: 1,
  userId: 101,
  name: "Front desk",
  scopes: ["read", "write"],
  clinicIds: [],
  roles: [],
};

/** A clock the test moves. */
function manualClock(iso: string) {
  let now = new Date(iso);
  return {
    now: () => new Date(now),
    advance: (minutes: number) => void (now = new Date(now.getTime() + minutes * 60_000)),
  };
}

/** Runs every due job of every module queue of `practice` until none is due (the runner's work, by hand). */
async function runDueJobs(practice: Practice, storage: Storage, now: () => Date): Promise<string[]> {
  const ran: string[] = [];
  for (let round = 0; round < 20; round++) {
    let any = false;
    for (const [queue, handler] of practice.moduleJobHandlers()) {
      const jobs = await storage.repositories.jobs.claim(queue, {
        limit: 50,
        now: now(),
        leaseMs: 60_000,
        leaseToken: `t${round}`,
      });
      for (const job of jobs) {
        any = true;
        ran.push(queue);
        const context = {
          finalAttempt: false,
          complete: (r: Storage["repositories"]) => r.jobs.complete(job.id, job.leaseToken, now(), "test"),
          renew: async () => true,
        };
        if ((await handler(job, context)) !== "completed")
          await storage.repositories.jobs.complete(job.id, job.leaseToken, now(), "test");
      }
    }
    if (!any) return ran;
  }
  throw new Error("jobs kept coming");
}

const refusal = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (error) {
    if (error instanceof DomainError) return { code: error.code, details: error.details };
    throw error;
  }
  throw new Error("expected a refusal");
};

// The waitlist's matching rules over the in-memory store with a clock the test moves (the HTTP walk through a week
// runs on every engine in test/http/waitlist-week.test.ts).
describe("waitlist matching: priority then age, holds, expiry, never the same slot twice, restart", () => {
  const clock = manualClock("2028-03-01T12:00:00Z");
  let storage: MemoryStorage;
  let practice: Practice;
  const ids = { clinic: 0, a: 0, b: 0, type: 0, patients: [] as number[] };

  beforeEach(async () => {
    storage = new MemoryStorage();
    practice = createPractice({ keys: testPracticeKeys(), storage, clock, waitlistOfferMinutes: 30 });
    await storage.repositories.organisations.ensure({ id: 1, name: "Org", plan: "free", now: clock.now() });
    ids.clinic = (await practice.clinics.create(principal, { name: "Chicago", timeZone: "America/Chicago" })).id;
    ids.a = (
      await practice.providers.create(principal, {
        userId: 701,
        firstName: "Ada",
        lastName: "A",
        clinicIds: [ids.clinic],
      })
    ).id;
    ids.b = (
      await practice.providers.create(principal, {
        userId: 702,
        firstName: "Bo",
        lastName: "B",
        clinicIds: [ids.clinic],
      })
    ).id;
    ids.type = (
      await practice.catalogAdmin.createAppointmentType(principal, {
        name: "Visit",
        type: "IN_PERSON",
        durationMinutes: 30,
      })
    ).id;
    await practice.catalogAdmin.createCancellationReason(principal, { reasonKey: "ILL", reasonLabel: "Ill" });
    for (const provider of [ids.a, ids.b])
      await practice.schedules.create(principal, provider, {
        clinicId: ids.clinic,
        weekdays: ["MO", "TU", "WE", "TH", "FR"],
        startTime: "09:00",
        endTime: "17:00",
        effectiveFrom: "2028-03-01",
      });
    ids.patients = [];
    for (const name of ["One", "Two", "Three", "Four", "Five", "Six"])
      ids.patients.push(
        (await practice.patients.register(principal, { firstName: name, lastName: "Wait", dateOfBirth: "1990-01-01" }))
          .patient.id,
      );
  });
  afterEach(() => storage.close());

  const request = (patient: number, over: Partial<WaitlistRequestDraft> = {}) =>
    practice.waitlist.create(principal, {
      patientId: patient,
      appointmentTypeId: ids.type,
      paymentMode: "SELF_PAY",
      providerIds: [ids.a],
      ...over,
    });
  const statusOf = async (id: number) => (await practice.waitlist.get(principal, id)).request.status;
  const monday9 = new Date("2028-03-06T15:00:00Z");

  it("offers a cancelled slot to the best match, holds it, moves it on at expiry, books it, and after a restart offers it again to the next", async () => {
    const booked = await practice.bookings.book(principal, {
      patientId: ids.patients[0] as number,
      providerId: ids.a,
      clinicId: ids.clinic,
      appointmentTypeId: ids.type,
      slotStart: monday9,
      paymentMode: "CASH",
    });
    const low = await request(ids.patients[1] as number, { priority: "low" });
    clock.advance(1);
    const older = await request(ids.patients[2] as number);
    clock.advance(1);
    const newer = await request(ids.patients[3] as number);
    const otherProvider = await request(ids.patients[4] as number, { priority: "high", providerIds: [ids.b] });
    const afternoons = await request(ids.patients[5] as number, {
      priority: "high",
      providerIds: [],
      timeWindows: [{ start: "13:00", end: "17:00" }],
    });

    // Nothing is offered before time is freed.
    expect(await runDueJobs(practice, storage, clock.now)).toEqual([]);
    await practice.appointments.act(principal, booked.appointment.id, {
      action: "CANCEL",
      cancellation: { reasonKey: "ILL" },
    });
    expect(await runDueJobs(practice, storage, clock.now)).toEqual(["scheduling.time-freed"]);

    // Normal beats low, the older of two normals wins; the high ones do not fit (other provider, afternoons only).
    const offered = await practice.waitlist.get(principal, older.request.id);
    expect(offered.request.status).toBe("offered");
    expect(offered.offers[0]).toMatchObject({
      status: "pending",
      providerId: ids.a,
      clinicId: ids.clinic,
      startsAt: monday9,
      endsAt: new Date("2028-03-06T15:30:00Z"),
      expiresAt: new Date(clock.now().getTime() + 30 * 60_000),
    });
    for (const r of [low, newer, otherProvider, afternoons]) expect(await statusOf(r.request.id)).toBe("waiting");
    // In the offer's transaction: the event for webhooks and the patient's push, queued for the delivery job.
    const events = (await storage.repositories.outbox.listPending(100)).filter(
      (e) => e.eventType === "waitlist.offer_created",
    );
    expect(events.map((e) => e.data)).toEqual([
      {
        organisation_id: 1,
        waitlist_request_id: older.request.id,
        waitlist_offer_id: offered.offers[0]?.id,
        patient_id: ids.patients[2],
        provider_id: ids.a,
        clinic_id: ids.clinic,
      },
    ]);
    const push = await storage.repositories.notifications.findByIdempotencyKey(
      1,
      `waitlist_offer_${offered.offers[0]?.id}`,
    );
    expect(push).toMatchObject({ userType: "PATIENT", userId: String(ids.patients[2]), deliveryStatus: "queued" });
    expect(push?.body).toContain("Mar 6, 2028, 9:00");

    // The offer holds the slot: slots leave it out and a slot booking is refused.
    const monday = await practice.slots.find(principal, {
      providerIds: [ids.a],
      clinicId: ids.clinic,
      slotLength: 30,
      startDate: "2028-03-06",
      days: 1,
    });
    expect(monday[0]?.slots[0]).toEqual(new Date("2028-03-06T15:30:00Z"));
    const held = await refusal(
      practice.bookings.book(principal, {
        patientId: ids.patients[0] as number,
        providerId: ids.a,
        clinicId: ids.clinic,
        appointmentTypeId: ids.type,
        slotStart: monday9,
        paymentMode: "CASH",
      }),
    );
    expect(held).toMatchObject({ code: "SLOT_UNAVAILABLE", details: { reason: "held" } });

    // The same freed time announced again offers nothing: the slot is held.
    await storage.transaction((tx) =>
      tx.jobs.enqueue({
        queue: "scheduling.time-freed",
        payload: {
          organisationId: 1,
          providerId: ids.a,
          clinicId: ids.clinic,
          startsAt: monday9.toISOString(),
          endsAt: "2028-03-06T15:30:00.000Z",
        },
        runAt: clock.now(),
      }),
    );
    await runDueJobs(practice, storage, clock.now);
    expect(await statusOf(newer.request.id)).toBe("waiting");

    // The hold runs out: the request waits again, and the slot goes to the next match (never back to it).
    clock.advance(31);
    expect(await runDueJobs(practice, storage, clock.now)).toEqual(["waitlist.offer-expiry", "scheduling.time-freed"]);
    expect((await practice.waitlist.get(principal, older.request.id)).offers[0]?.status).toBe("expired");
    expect(await statusOf(older.request.id)).toBe("waiting");
    expect(await statusOf(newer.request.id)).toBe("offered");
    expect(await refusal(practice.waitlist.acceptOffer(principal, older.request.id))).toMatchObject({
      code: "INVALID_TRANSITION",
      details: { current_status: "waiting" },
    });

    // Accepted: the appointment, the offer accepted and the request booked.
    const accepted = await practice.waitlist.acceptOffer(principal, newer.request.id);
    expect(accepted.outcome.appointment).toMatchObject({
      patientId: ids.patients[3],
      doctorId: 701,
      startsAt: monday9,
      status: "SCHEDULED",
    });
    expect(accepted.view.request).toMatchObject({ status: "booked", appointmentId: accepted.outcome.appointment.id });
    expect(accepted.view.offers[0]).toMatchObject({
      status: "accepted",
      appointmentId: accepted.outcome.appointment.id,
    });
    expect(await refusal(practice.waitlist.acceptOffer(principal, newer.request.id))).toMatchObject({
      code: "INVALID_TRANSITION",
      details: { current_status: "booked" },
    });

    // Cancelled again, and a new instance over the same store (a restart) picks the queued job up: the two that
    // had the slot are passed over, so it goes to the low-priority request.
    await practice.appointments.act(principal, accepted.outcome.appointment.id, {
      action: "CANCEL",
      cancellation: { reasonKey: "ILL" },
    });
    const restarted = createPractice({ keys: testPracticeKeys(), storage, clock, waitlistOfferMinutes: 30 });
    expect(await runDueJobs(restarted, storage, clock.now)).toEqual(["scheduling.time-freed"]);
    expect(await statusOf(low.request.id)).toBe("offered");

    // Past its expiry an offer cannot be accepted, even before the expiry job ran.
    clock.advance(30);
    expect(await refusal(practice.waitlist.acceptOffer(principal, low.request.id))).toMatchObject({
      code: "WAITLIST_OFFER_EXPIRED",
    });
  });

  it("a cancelled request withdraws its offer and the slot moves on; a waiting request past its latest date expires", async () => {
    const booked = await practice.bookings.book(principal, {
      patientId: ids.patients[0] as number,
      providerId: ids.a,
      clinicId: ids.clinic,
      appointmentTypeId: ids.type,
      slotStart: monday9,
      paymentMode: "CASH",
    });
    const first = await request(ids.patients[1] as number, { priority: "high" });
    const stale = await request(ids.patients[2] as number, { latestDate: "2028-02-29", priority: "high" });
    const second = await request(ids.patients[3] as number);
    await practice.appointments.act(principal, booked.appointment.id, {
      action: "CANCEL",
      cancellation: { reasonKey: "ILL" },
    });
    await runDueJobs(practice, storage, clock.now);
    expect(await statusOf(stale.request.id)).toBe("expired");
    expect(await statusOf(first.request.id)).toBe("offered");
    const cancelled = await practice.waitlist.cancel(principal, first.request.id);
    expect(cancelled.request.status).toBe("cancelled");
    expect(cancelled.offers[0]?.status).toBe("withdrawn");
    await runDueJobs(practice, storage, clock.now);
    expect(await statusOf(second.request.id)).toBe("offered");
    expect(await refusal(practice.waitlist.cancel(principal, first.request.id))).toMatchObject({
      code: "INVALID_TRANSITION",
      details: { current_status: "cancelled" },
    });
    expect(await refusal(practice.waitlist.update(principal, first.request.id, { notes: "x" }))).toMatchObject({
      code: "INVALID_TRANSITION",
    });
  });

  it("refuses bad requests naming the field, and unknown references", async () => {
    const bad = await refusal(
      request(ids.patients[0] as number, {
        timeWindows: [{ start: "12:00", end: "11:00" }],
        earliestDate: "2028-05-01",
        latestDate: "2028-04-01",
        preferredDays: ["XX" as never],
      }),
    );
    expect(bad.code).toBe("VALIDATION_FAILED");
    expect((bad.details.issues as { field: string }[]).map((i) => i.field)).toEqual([
      "preferredDays",
      "timeWindows.0",
      "latestDate",
    ]);
    const unknown = await refusal(request(999_999, { providerIds: [888_888] }));
    expect(unknown.code).toBe("UNKNOWN_REFERENCE");
    expect((unknown.details.issues as { field: string }[]).map((i) => i.field)).toEqual(["patientId", "providerIds"]);
    expect((await practice.waitlist.list(principal, {})).total).toBe(0);
  });
});

// The state machine table, walked: every caller trigger from every status through the service, allowed exactly
// where a row says so (the job triggers' rows are walked by the matching tests above).
describe("waitlist state machine", () => {
  it("has well-formed rows: known statuses and triggers, and OFFER_EXPIRED told apart by its guards", () => {
    for (const t of WAITLIST_TRANSITIONS) {
      expect(WAITLIST_STATUSES).toContain(t.from);
      expect(WAITLIST_STATUSES).toContain(t.to);
      expect(WAITLIST_TRIGGERS).toContain(t.trigger);
    }
    expect(waitlistTransitions("offered", "OFFER_EXPIRED").map((t) => [t.guard, t.to])).toEqual([
      ["before_latest", "waiting"],
      ["after_latest", "expired"],
    ]);
    for (const status of ["booked", "expired", "cancelled"] as const)
      expect(allowedWaitlistTriggers(status)).toEqual([]);
  });

  const CALLER_TRIGGERS = ["UPDATE", "CANCEL", "ACCEPT"] as const;
  for (const status of WAITLIST_STATUSES)
    for (const trigger of CALLER_TRIGGERS) {
      const allowed = waitlistTransitions(status, trigger).length > 0;
      it(`${trigger} from ${status} is ${allowed ? "allowed" : "refused with INVALID_TRANSITION"}`, async () => {
        const clock = manualClock("2028-03-01T12:00:00Z");
        const storage = new MemoryStorage();
        const practice = createPractice({ keys: testPracticeKeys(), storage, clock });
        await storage.repositories.organisations.ensure({ id: 1, name: "Org", plan: "free", now: clock.now() });
        const clinic = (await practice.clinics.create(principal, { name: "C", timeZone: "UTC" })).id;
        const provider = (
          await practice.providers.create(principal, {
            userId: 701,
            firstName: "A",
            lastName: "A",
            clinicIds: [clinic],
          })
        ).id;
        const type = (
          await practice.catalogAdmin.createAppointmentType(principal, {
            name: "V",
            type: "IN_PERSON",
            durationMinutes: 30,
          })
        ).id;
        await practice.catalogAdmin.createCancellationReason(principal, { reasonKey: "ILL", reasonLabel: "Ill" });
        await practice.schedules.create(principal, provider, {
          clinicId: clinic,
          weekdays: ["MO"],
          startTime: "09:00",
          endTime: "17:00",
          effectiveFrom: "2028-03-01",
        });
        const patient = (
          await practice.patients.register(principal, { firstName: "P", lastName: "Q", dateOfBirth: "1990-01-01" })
        ).patient.id;
        const slot = await practice.bookings.book(principal, {
          patientId: patient,
          providerId: provider,
          clinicId: clinic,
          appointmentTypeId: type,
          slotStart: new Date("2028-03-06T09:00:00Z"),
          paymentMode: "CASH",
        });
        const { request } = await practice.waitlist.create(principal, {
          patientId: patient,
          appointmentTypeId: type,
          paymentMode: "CASH",
          latestDate: status === "expired" ? "2028-02-29" : null,
        });
        // Into the status through the service and the jobs, as in production.
        if (status !== "waiting") {
          if (status === "cancelled") await practice.waitlist.cancel(principal, request.id);
          else {
            await practice.appointments.act(principal, slot.appointment.id, {
              action: "CANCEL",
              cancellation: { reasonKey: "ILL" },
            });
            await runDueJobs(practice, storage, clock.now);
            if (status === "booked") await practice.waitlist.acceptOffer(principal, request.id);
          }
        }
        expect((await practice.waitlist.get(principal, request.id)).request.status).toBe(status);
        const run = () =>
          trigger === "UPDATE"
            ? practice.waitlist.update(principal, request.id, { notes: "call after 5pm" })
            : trigger === "CANCEL"
              ? practice.waitlist.cancel(principal, request.id)
              : practice.waitlist.acceptOffer(principal, request.id).then((r) => r.view);
        if (allowed) {
          const after = await run();
          expect(after.request.status).toBe(waitlistTransitions(status, trigger)[0]?.to);
        } else {
          expect(await refusal(run())).toMatchObject({
            code: "INVALID_TRANSITION",
            details: { current_status: status },
          });
          expect((await practice.waitlist.get(principal, request.id)).request.status).toBe(status);
        }
        await storage.close();
      });
    }
});
