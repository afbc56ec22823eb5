import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines } from "../support/engines.js";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";

const HOUR = 3600;
/** Unix seconds of a fixed day in the future, so bookings never collide with "now" rules. */
const DAY = Math.floor(Date.parse("2031-05-05T00:00:00Z") / 1000);
const past = Math.floor(Date.now() / 1000) - 2 * HOUR;

// The v1 appointment API over HTTP, on every engine this run has.
for (const engine of availableEngines()) {
  describe(`[${engine}] v1 appointments over HTTP`, () => {
    let rt: TestRuntime;
    const ids = {
      clinic: 0,
      otherClinic: 0,
      patient: 0,
      otherPatient: 0,
      foreignPatient: 0,
      eval: 0,
      followUp: 0,
      foreignCategory: 0,
    };

    beforeAll(async () => {
      rt = await startTestRuntime({ OPENPRACTICE_PLAN_LIMITS: '{"free":100000}' }, { engine });
      // Reference data through the library (there is no API to create providers yet); everything asserted goes over HTTP.
      const r = rt.runtime.practice.storage.repositories;
      const now = new Date();
      await r.organisations.ensure({ id: 1, name: "Org one", plan: "free", now });
      await r.organisations.ensure({ id: 2, name: "Org two", plan: "free", now });
      ids.clinic = (
        await r.organisations.ensureClinic({ organisationId: 1, name: "Main", timeZone: "America/Chicago" })
      ).id;
      ids.otherClinic = (
        await r.organisations.ensureClinic({ organisationId: 1, name: "North", timeZone: "America/Chicago" })
      ).id;
      const foreignClinic = (
        await r.organisations.ensureClinic({ organisationId: 2, name: "Elsewhere", timeZone: "UTC" })
      ).id;
      await r.organisations.upsertProvider({
        organisationId: 1,
        userId: 101,
        firstName: "Dana",
        lastName: "Reyes",
        npi: "1234567893",
        supervisingUserId: null,
        clinicIds: [ids.clinic],
      });
      await r.organisations.upsertProvider({
        organisationId: 1,
        userId: 102,
        firstName: "Sam",
        lastName: "Ortiz",
        npi: null,
        supervisingUserId: 101,
        clinicIds: [ids.clinic, ids.otherClinic],
      });
      await r.organisations.upsertProvider({
        organisationId: 2,
        userId: 201,
        firstName: "Other",
        lastName: "Org",
        npi: null,
        supervisingUserId: null,
        clinicIds: [foreignClinic],
      });
      ids.eval = (
        await r.catalog.ensureAppointmentCategory({
          organisationId: 1,
          name: "Initial evaluation",
          type: "IN_PERSON",
          durationMinutes: 60,
        })
      ).id;
      ids.followUp = (
        await r.catalog.ensureAppointmentCategory({
          organisationId: 1,
          name: "Follow-up",
          type: "TELEHEALTH",
          durationMinutes: 30,
        })
      ).id;
      ids.foreignCategory = (
        await r.catalog.ensureAppointmentCategory({
          organisationId: 2,
          name: "Initial evaluation",
          type: "IN_PERSON",
          durationMinutes: 60,
        })
      ).id;
      await r.catalog.ensureCancellationReason({
        organisationId: 1,
        reasonKey: "LATE_CANCEL",
        reasonLabel: "Late cancellation",
        cancellationFee: 35,
        status: "ACTIVE",
      });
      await r.catalog.ensureCancellationReason({
        organisationId: 1,
        reasonKey: "ILLNESS",
        reasonLabel: "Patient ill",
        cancellationFee: 0,
        status: "ACTIVE",
      });
      const patient = async (first_name: string, token?: string) =>
        (
          await (
            await rt.call("POST", "/apis/v1/patient", {
              body: { first_name, last_name: "Test", date_of_birth: "1980-01-01" },
              ...(token ? { token } : {}),
            })
          ).json()
        ).data.patient_id as number;
      ids.patient = await patient("Ada");
      ids.otherPatient = await patient("Alan");
      ids.foreignPatient = await patient("Foreign", await rt.token({ organisationId: 2, userId: 201 }));
    });
    afterAll(async () => {
      await rt.stop();
    });

    const booking = (over: Record<string, unknown> = {}) => ({
      doctor_id: 101,
      patient_id: ids.patient,
      clinic_id: ids.clinic,
      appointment_category: [ids.eval],
      timestamp: DAY + 9 * HOUR,
      end_timestamp: DAY + 10 * HOUR,
      payment_mode: "INSURANCE_PAY",
      ...over,
    });
    const post = async (path: string, body?: unknown, token?: string) => {
      const res = await rt.call("POST", path, { ...(body === undefined ? {} : { body }), ...(token ? { token } : {}) });
      return { status: res.status, body: await res.json() };
    };
    const get = async (path: string) => {
      const res = await rt.call("GET", path);
      return { status: res.status, body: await res.json() };
    };
    const count = async (table: string) => Number(await rt.scalar(`select count(*) from ${table}`));
    /** Runs `fn` and asserts it wrote no appointment, no history and no event. */
    const writesNothing = async (fn: () => Promise<void>) => {
      const before = [await count("appointments"), await count("appointment_history"), await count("outbox")];
      await fn();
      expect([await count("appointments"), await count("appointment_history"), await count("outbox")]).toEqual(before);
    };
    let slot = 0;
    /** A booking on its own hour so tests do not collide. */
    const book = async (over: Record<string, unknown> = {}) => {
      slot += 1;
      const res = await post(
        "/apis/v1/appointment",
        booking({ timestamp: DAY + (20 + slot) * HOUR, end_timestamp: DAY + (20 + slot) * HOUR + 1800, ...over }),
      );
      expect(res.status).toBe(200);
      return res.body.data as Record<string, any>;
    };

    it("books an appointment: the v1 envelope with every field, an audit row and appointment.created with exactly the spec 6.1 fields", async () => {
      const { status, body } = await post(
        "/apis/v1/appointment",
        booking({
          appointment_category: [ids.followUp, ids.eval],
          tele_health_url: "https://meet.example.org/r/1",
          comments: "first visit",
          appointment_notes: "bring MRI",
        }),
      );
      expect(status).toBe(200);
      expect(body).toMatchObject({ code: 2000, message: "Success" });
      const a = body.data;
      expect(a).toEqual({
        appointment_id: expect.any(Number),
        organisation_id: 1,
        patient_id: ids.patient,
        doctor_id: 101,
        clinic_id: ids.clinic,
        appointment_category: [ids.eval, ids.followUp].sort((x, y) => x - y),
        timestamp: DAY + 9 * HOUR,
        end_timestamp: DAY + 10 * HOUR,
        start_time: "2031-05-05T09:00:00",
        end_time: "2031-05-05T10:00:00",
        payment_mode: "INSURANCE_PAY",
        service_case_id: null,
        tele_health_url: "https://meet.example.org/r/1",
        comments: "first visit",
        appointment_notes: "bring MRI",
        status: "SCHEDULED",
        cancellation_reason_key: null,
        cancellation_reason_label: null,
        cancellation_reason_comment: null,
        cancellation_fee: null,
        cancelled_at: null,
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/),
        updated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/),
        warnings: [],
      });
      const { warnings: _w, ...stored } = a;
      expect((await get(`/apis/v1/appointment/${a.appointment_id}`)).body.data).toEqual(stored);
      const [event] = await rt.rawRows(
        "select event_type, data from outbox where event_type = 'appointment.created' order by id desc",
      );
      expect(JSON.parse(String(event?.data))).toEqual({
        organisation_id: 1,
        appointment_id: a.appointment_id,
        patient_id: ids.patient,
        service_case_id: null,
        clinic_id: ids.clinic,
      });
      const history = (await get(`/apis/v1/appointment/${a.appointment_id}/history`)).body.data;
      expect(history).toEqual([
        expect.objectContaining({ action: "BOOK", from_status: null, to_status: "SCHEDULED", by_user_id: 101 }),
      ]);
    });

    it("refuses ids that are unknown or belong to another organisation, naming each field, and writes nothing", async () => {
      await writesNothing(async () => {
        const { status, body } = await post(
          "/apis/v1/appointment",
          booking({
            patient_id: ids.foreignPatient,
            doctor_id: 201,
            clinic_id: 999999,
            appointment_category: [ids.eval, ids.foreignCategory],
          }),
        );
        expect(status).toBe(400);
        expect(body).toMatchObject({ code: 4006, data: null, error_code: "UNKNOWN_REFERENCE" });
        expect(body.errors.map((e: { field: string }) => e.field)).toEqual([
          "patient_id",
          "doctor_id",
          "clinic_id",
          "appointment_category",
        ]);
        expect(body.message).toContain("patient_id: does not exist in this organisation");
        const unknownCase = await post("/apis/v1/appointment", booking({ service_case_id: "SERVICE_CASE_12" }));
        expect(unknownCase.body.errors).toEqual([
          { field: "service_case_id", reason: "no such case for this patient", value: 12 },
        ]);
      });
    });

    it("refuses a doctor who does not work at the clinic, and bad shapes, naming the field, writing nothing", async () => {
      await writesNothing(async () => {
        const notHere = await post("/apis/v1/appointment", booking({ clinic_id: ids.otherClinic }));
        expect(notHere.status).toBe(400);
        expect(notHere.body).toMatchObject({
          code: 4000,
          error_code: "VALIDATION_FAILED",
          errors: [{ field: "doctor_id", reason: `does not work at clinic ${ids.otherClinic}` }],
        });
        const cases: Array<[Record<string, unknown>, string]> = [
          [{ end_timestamp: DAY + 8 * HOUR }, "end_timestamp"],
          [{ end_timestamp: DAY + 9 * HOUR }, "end_timestamp"],
          [{ end_timestamp: DAY + 40 * HOUR }, "end_timestamp"],
          [{ doctor_id: "101" }, "doctor_id"],
          [{ appointment_category: [] }, "appointment_category"],
          [{ appointment_category: [ids.eval, ids.eval] }, "appointment_category"],
          [{ payment_mode: "BARTER" }, "payment_mode"],
          [{ payment_mode: undefined }, "payment_mode"],
          [{ timestamp: -5 }, "timestamp"],
          [{ tele_health_url: "ftp://x" }, "tele_health_url"],
          [{ service_case_id: "CASE_1" }, "service_case_id"],
          [{ surprise: true }, "surprise"],
        ];
        for (const [over, field] of cases) {
          const { status, body } = await post("/apis/v1/appointment", booking(over));
          expect(status, JSON.stringify(over)).toBe(400);
          expect(body.code).toBe(4000);
          expect(body.errors.map((e: { field: string }) => e.field)).toContain(field);
        }
        const malformed = await rt.call("POST", "/apis/v1/appointment", { body: "{not json" });
        expect(malformed.status).toBe(400);
        expect((await malformed.json()).code).toBe(4002);
      });
    });

    it("refuses double-booking a doctor with the conflicting appointment named, unless the clinic allows it", async () => {
      const first = await book();
      await writesNothing(async () => {
        const { status, body } = await post(
          "/apis/v1/appointment",
          booking({
            patient_id: ids.otherPatient,
            timestamp: first.timestamp + 600,
            end_timestamp: first.end_timestamp + 600,
          }),
        );
        expect(status).toBe(409);
        expect(body).toMatchObject({
          code: 4091,
          error_code: "SCHEDULE_CONFLICT",
          details: { conflicting_appointment_id: first.appointment_id, conflicting_timestamp: first.timestamp },
        });
      });
      // Back to back is not a conflict; another doctor at the same time is not either.
      expect(
        (
          await post(
            "/apis/v1/appointment",
            booking({ timestamp: first.end_timestamp, end_timestamp: first.end_timestamp + 900 }),
          )
        ).status,
      ).toBe(200);
      expect(
        (
          await post(
            "/apis/v1/appointment",
            booking({ doctor_id: 102, timestamp: first.timestamp, end_timestamp: first.end_timestamp }),
          )
        ).status,
      ).toBe(200);
      const allow = await post(`/apis/v1/clinic/${ids.clinic}/settings`, { allow_double_booking: true });
      expect(allow.body.data).toMatchObject({ clinic_id: ids.clinic, allow_double_booking: true });
      expect(
        (
          await post(
            "/apis/v1/appointment",
            booking({ timestamp: first.timestamp, end_timestamp: first.end_timestamp }),
          )
        ).status,
      ).toBe(200);
      await post(`/apis/v1/clinic/${ids.clinic}/settings`, { allow_double_booking: false });
      const badSetting = await post(`/apis/v1/clinic/${ids.clinic}/settings`, { allow_double_booking: "yes" });
      expect(badSetting.body.errors).toEqual([expect.objectContaining({ field: "allow_double_booking" })]);
    });

    it("10 simultaneous bookings of one doctor and slot: exactly one 200", async () => {
      const body = booking({ timestamp: DAY + 200 * HOUR, end_timestamp: DAY + 201 * HOUR });
      const statuses = await Promise.all(
        Array.from({ length: 10 }, async () => (await rt.call("POST", "/apis/v1/appointment", { body })).status),
      );
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(9);
    });

    it("cancels with a reason and the reason's fee by default, or the fee sent; emits appointment.cancelled", async () => {
      const a = await book();
      const { status, body } = await post(`/apis/v1/appointment/appointment-cancel/${a.appointment_id}`, {
        cancellation_reason_key: "LATE_CANCEL",
        cancellation_reason_label: "Late cancellation",
        cancellation_reason_comment: "called at 8am",
      });
      expect(status).toBe(200);
      expect(body.data).toMatchObject({
        status: "CANCELLED",
        cancellation_reason_key: "LATE_CANCEL",
        cancellation_reason_label: "Late cancellation",
        cancellation_reason_comment: "called at 8am",
        cancellation_fee: 35,
        cancelled_at: expect.any(String),
      });
      const [event] = await rt.rawRows(
        "select data from outbox where event_type = 'appointment.cancelled' order by id desc",
      );
      expect(JSON.parse(String(event?.data))).toEqual({
        organisation_id: 1,
        appointment_id: a.appointment_id,
        patient_id: ids.patient,
        service_case_id: null,
        clinic_id: ids.clinic,
      });
      const b = await book();
      const waived = await post(`/apis/v1/appointment/appointment-cancel/${b.appointment_id}`, {
        cancellation_reason_key: "LATE_CANCEL",
        cancellation_reason_label: "Late cancellation",
        cancellation_fee: 0,
      });
      expect(waived.body.data.cancellation_fee).toBe(0);
      const c = await book();
      const partial = await post(`/apis/v1/appointment/appointment-cancel/${c.appointment_id}`, {
        cancellation_reason_key: "ILLNESS",
        cancellation_reason_label: "Patient ill",
        cancellation_fee: 12.5,
      });
      expect(partial.body.data.cancellation_fee).toBe(12.5);
      // The freed slot can be booked again.
      expect(
        (await post("/apis/v1/appointment", booking({ timestamp: a.timestamp, end_timestamp: a.end_timestamp })))
          .status,
      ).toBe(200);
    });

    it("refuses cancelling twice, a checked-out visit, an unknown reason and a bad fee; nothing changes", async () => {
      const cancel = { cancellation_reason_key: "ILLNESS", cancellation_reason_label: "Patient ill" };
      const a = await book();
      await post(`/apis/v1/appointment/appointment-cancel/${a.appointment_id}`, cancel);
      const done = await book();
      await post(`/apis/v1/appointment/${done.appointment_id}/check-in`);
      await post(`/apis/v1/appointment/${done.appointment_id}/check-out`);
      const fresh = await book();
      const snapshot = async () => [
        (await get(`/apis/v1/appointment/${a.appointment_id}`)).body.data,
        (await get(`/apis/v1/appointment/${done.appointment_id}`)).body.data,
        (await get(`/apis/v1/appointment/${fresh.appointment_id}`)).body.data,
      ];
      const before = await snapshot();
      await writesNothing(async () => {
        const twice = await post(`/apis/v1/appointment/appointment-cancel/${a.appointment_id}`, cancel);
        expect(twice.status).toBe(409);
        expect(twice.body).toMatchObject({
          code: 4092,
          error_code: "INVALID_TRANSITION",
          message: "Cannot cancel an appointment that is CANCELLED",
          details: { current_status: "CANCELLED", allowed_actions: [] },
        });
        const checkedOut = await post(`/apis/v1/appointment/appointment-cancel/${done.appointment_id}`, cancel);
        expect(checkedOut.body).toMatchObject({ code: 4092, details: { current_status: "CHECKED_OUT" } });
        const unknown = await post(`/apis/v1/appointment/appointment-cancel/${fresh.appointment_id}`, {
          ...cancel,
          cancellation_reason_key: "WEATHER",
        });
        expect(unknown.status).toBe(400);
        expect(unknown.body).toMatchObject({ code: 4006, errors: [{ field: "cancellation_reason_key" }] });
        for (const fee of [-1, "10", 1.234]) {
          const bad = await post(`/apis/v1/appointment/appointment-cancel/${fresh.appointment_id}`, {
            ...cancel,
            cancellation_fee: fee,
          });
          expect(bad.status, String(fee)).toBe(400);
          expect(bad.body.errors[0].field).toBe("cancellation_fee");
        }
        const missing = await post(`/apis/v1/appointment/appointment-cancel/${fresh.appointment_id}`, {
          cancellation_reason_key: "ILLNESS",
        });
        expect(missing.body.errors).toEqual([{ field: "cancellation_reason_label", reason: "is required" }]);
        expect((await post("/apis/v1/appointment/appointment-cancel/987654", cancel)).body).toMatchObject({
          code: 4004,
          error_code: "APPOINTMENT_NOT_FOUND",
        });
      });
      expect(await snapshot()).toEqual(before);
    });

    it("walks the statuses through their endpoints, each emitting appointment.updated; illegal ones name the current status", async () => {
      const a = await book();
      const updatedEvents = async () =>
        Number(await rt.scalar("select count(*) from outbox where event_type = 'appointment.updated'"));
      const events0 = await updatedEvents();
      const start = await post(`/apis/v1/appointment/${a.appointment_id}/start`);
      expect(start.status).toBe(409);
      expect(start.body).toMatchObject({
        error_code: "INVALID_TRANSITION",
        details: {
          current_status: "SCHEDULED",
          action: "START",
          allowed_actions: ["CHECK_IN", "RESCHEDULE", "NO_SHOW", "CANCEL"],
        },
      });
      for (const [segment, next] of [
        ["check-in", "CHECKED_IN"],
        ["start", "IN_PROGRESS"],
        ["check-out", "CHECKED_OUT"],
      ] as const) {
        const res = await post(`/apis/v1/appointment/${a.appointment_id}/${segment}`);
        expect(res.status, segment).toBe(200);
        expect(res.body.data.status).toBe(next);
      }
      expect(await updatedEvents()).toBe(events0 + 3);
      const again = await post(`/apis/v1/appointment/${a.appointment_id}/check-in`);
      expect(again.body).toMatchObject({ code: 4092, message: "Cannot check-in an appointment that is CHECKED_OUT" });
      const history = (await get(`/apis/v1/appointment/${a.appointment_id}/history`)).body.data.map(
        (h: { action: string }) => h.action,
      );
      expect(history).toEqual(["BOOK", "CHECK_IN", "START", "CHECK_OUT"]);
    });

    it("reschedules to a free slot, refuses a taken one, and marks no-shows only after the start", async () => {
      const a = await book();
      const b = await book();
      const moved = await post(`/apis/v1/appointment/${a.appointment_id}/reschedule`, {
        timestamp: DAY + 500 * HOUR,
        end_timestamp: DAY + 501 * HOUR,
      });
      expect(moved.body.data).toMatchObject({
        status: "SCHEDULED",
        timestamp: DAY + 500 * HOUR,
        end_timestamp: DAY + 501 * HOUR,
      });
      const clash = await post(`/apis/v1/appointment/${b.appointment_id}/reschedule`, {
        timestamp: DAY + 500 * HOUR,
        end_timestamp: DAY + 500 * HOUR + 1800,
      });
      expect(clash.body).toMatchObject({ code: 4091, details: { conflicting_appointment_id: a.appointment_id } });
      const backwards = await post(`/apis/v1/appointment/${b.appointment_id}/reschedule`, {
        timestamp: DAY + 600 * HOUR,
        end_timestamp: DAY + 599 * HOUR,
      });
      expect(backwards.body.errors).toEqual([{ field: "end_timestamp", reason: "must be after the start time" }]);
      const early = await post(`/apis/v1/appointment/${b.appointment_id}/no-show`);
      expect(early.body).toMatchObject({ code: 4092, details: { guard: "start_passed" } });
      const missed = await book({ timestamp: past, end_timestamp: past + 1800 });
      expect((await post(`/apis/v1/appointment/${missed.appointment_id}/no-show`)).body.data.status).toBe("NO_SHOW");
      const rebooked = await post(`/apis/v1/appointment/${missed.appointment_id}/reschedule`, {
        timestamp: DAY + 700 * HOUR,
        end_timestamp: DAY + 701 * HOUR,
      });
      expect(rebooked.body.data.status).toBe("SCHEDULED");
    });

    it("lists by start time with pagination, filters and totals; refuses sizes past the maximum", async () => {
      const base = DAY + 1000 * HOUR;
      const mk = (h: number, over: Record<string, unknown> = {}) =>
        book({ timestamp: base + h * HOUR, end_timestamp: base + h * HOUR + 1800, ...over });
      const l3 = await mk(3, { doctor_id: 102, clinic_id: ids.otherClinic, appointment_category: [ids.followUp] });
      const l1 = await mk(1);
      const l2 = await mk(2, { patient_id: ids.otherPatient, doctor_id: 102 });
      await post(`/apis/v1/appointment/${l2.appointment_id}/check-in`);
      const range = `from=${base}&to=${base + 10 * HOUR}`;
      const list = async (q: string) => (await get(`/apis/v1/appointments?${range}&${q}`)).body.data;
      const idsOf = (d: { appointments: { appointment_id: number }[] }) => d.appointments.map((x) => x.appointment_id);
      const all = await list("");
      expect(idsOf(all)).toEqual([l1.appointment_id, l2.appointment_id, l3.appointment_id]);
      expect(all.pagination).toEqual({ page: 1, size: 20, total_count: 3, total_pages: 1, has_next: false });
      expect(idsOf(await list("doctor_id=102"))).toEqual([l2.appointment_id, l3.appointment_id]);
      expect(idsOf(await list(`clinic_id=${ids.otherClinic}`))).toEqual([l3.appointment_id]);
      expect(idsOf(await list(`patient_id=${ids.otherPatient}`))).toEqual([l2.appointment_id]);
      expect(idsOf(await list("status=checked_in,CANCELLED"))).toEqual([l2.appointment_id]);
      expect(idsOf(await list(`category_id=${ids.followUp}`))).toEqual([l3.appointment_id]);
      const page2 = await list("size=2&page=2");
      expect(idsOf(page2)).toEqual([l3.appointment_id]);
      expect(page2.pagination).toEqual({ page: 2, size: 2, total_count: 3, total_pages: 2, has_next: false });
      for (const [q, parameter] of [
        ["size=101", "size"],
        ["page=0", "page"],
        ["status=LOST", "status"],
        ["doctor_id=abc", "doctor_id"],
        [`from=${base + 5}&to=${base}`, "from"],
        ["colour=red", "colour"],
      ]) {
        const res = await get(`/apis/v1/appointments?${q}`);
        expect(res.status, q).toBe(400);
        expect(res.body).toMatchObject({ code: 4000, error_code: "INVALID_PARAMETER", details: { parameter } });
      }
    });

    it("shows the patient's appointments in the v2 patient with expand=appointments", async () => {
      const fresh = (
        await (
          await rt.call("POST", "/apis/v1/patient", {
            body: { first_name: "Expand", last_name: "Me", date_of_birth: "1990-02-02" },
          })
        ).json()
      ).data.patient_id;
      const a = await book({ patient_id: fresh });
      const b = await book({ patient_id: fresh });
      await post(`/apis/v1/appointment/${b.appointment_id}/check-in`);
      const v2 = await (await rt.call("GET", `/v2/patients/${fresh}?expand=appointments&fields=first_name`)).json();
      expect(v2.appointments).toEqual([
        {
          id: String(a.appointment_id),
          date: new Date(a.timestamp * 1000).toISOString(),
          status: "scheduled",
          provider_id: "101",
        },
        {
          id: String(b.appointment_id),
          date: new Date(b.timestamp * 1000).toISOString(),
          status: "checked_in",
          provider_id: "101",
        },
      ]);
    });

    it("lists categories with their types and cancellation reasons with fees and status", async () => {
      const categories = (await get("/apis/v1/appointment/categories")).body.data;
      expect(categories).toEqual([
        { id: ids.eval, name: "Initial evaluation", type: "IN_PERSON", duration_minutes: 60 },
        { id: ids.followUp, name: "Follow-up", type: "TELEHEALTH", duration_minutes: 30 },
      ]);
      const reasons = (await get("/apis/v1/appointment/appointment-cancellation")).body.data;
      expect(reasons).toEqual([
        {
          id: expect.any(Number),
          reason_key: "LATE_CANCEL",
          reason_label: "Late cancellation",
          cancellation_fee: 35,
          status: "ACTIVE",
        },
        {
          id: expect.any(Number),
          reason_key: "ILLNESS",
          reason_label: "Patient ill",
          cancellation_fee: 0,
          status: "ACTIVE",
        },
      ]);
    });

    it("hides other organisations' appointments and needs the write scope to book", async () => {
      const a = await book();
      const foreign = await rt.call("GET", `/apis/v1/appointment/${a.appointment_id}`, {
        token: await rt.token({ organisationId: 2, userId: 201 }),
      });
      expect(foreign.status).toBe(404);
      expect((await foreign.json()).code).toBe(4004);
      const readOnly = await rt.call("POST", "/apis/v1/appointment", {
        body: booking(),
        token: await rt.token({ scope: "read" }),
      });
      expect(readOnly.status).toBe(403);
      expect((await rt.call("GET", "/apis/v1/appointments", { token: await rt.token({ scope: "read" }) })).status).toBe(
        200,
      );
    });
  });
}
