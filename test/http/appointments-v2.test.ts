import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines } from "../support/engines.js";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";

const unix = (iso: string) => Math.floor(Date.parse(iso) / 1000);

// v2 appointments (spec 4.7, issue 19 point 4) on every engine this run has (SQLite; PostgreSQL and MariaDB in CI).
// 2028-03-06 is a Monday; the provider works 09:00-17:00 America/Chicago on weekdays from 2028-01-03.
for (const engine of availableEngines()) {
  describe(`[${engine}] v2 appointments`, () => {
    let rt: TestRuntime;
    const ids = { clinic: "", otherClinic: "", provider: "", userId: 601, patient: "", otherPatient: "", type: "" };

    const json = async (res: Response) => ({ status: res.status, body: await res.json(), res });
    const call = (method: string, path: string, body?: unknown, token?: string) =>
      rt.call(method, path, { ...(body === undefined ? {} : { body }), ...(token ? { token } : {}) }).then(json);
    const book = (over: Record<string, unknown>, token?: string) =>
      call(
        "POST",
        "/v2/appointments",
        {
          patient_id: ids.patient,
          provider_id: ids.provider,
          clinic_id: ids.clinic,
          appointment_type_id: ids.type,
          payment_mode: "SELF_PAY",
          ...over,
        },
        token,
      );
    const count = async (table: string) => Number(await rt.scalar(`select count(*) from ${table}`));
    const writesNothing = async (fn: () => Promise<void>) => {
      const before = [await count("appointments"), await count("appointment_history"), await count("outbox")];
      await fn();
      expect([await count("appointments"), await count("appointment_history"), await count("outbox")]).toEqual(before);
    };
    const eventsOf = async (appointmentId: string) =>
      (
        await rt.rawRows("select event_type, data from outbox where event_type like 'appointment.%' order by id")
      ).filter((e) => JSON.parse(String(e.data)).appointment_id === Number(appointmentId));

    beforeAll(async () => {
      rt = await startTestRuntime({ OPENPRACTICE_PLAN_LIMITS: '{"free":100000}' }, { engine });
      const admin = await rt.token({ scope: "admin read write" });
      ids.clinic = (await call("POST", "/v2/clinics", { name: "Chicago", time_zone: "America/Chicago" })).body.id;
      ids.otherClinic = (await call("POST", "/v2/clinics", { name: "Denver", time_zone: "America/Denver" })).body.id;
      ids.provider = (
        await call("POST", "/v2/providers", {
          user_id: String(ids.userId),
          first_name: "Ada",
          last_name: "Booker",
          clinic_ids: [ids.clinic, ids.otherClinic],
        })
      ).body.id;
      ids.type = (
        await call("POST", "/v2/appointment-types", { name: "Visit", type: "IN_PERSON", duration_minutes: 30 }, admin)
      ).body.id;
      expect(
        (
          await call(
            "POST",
            "/v2/cancellation-reasons",
            { reason_key: "PATIENT_ILL", reason_label: "Patient is ill", cancellation_fee: 15 },
            admin,
          )
        ).status,
      ).toBe(201);
      ids.patient = (
        await call("POST", "/v2/patients", { first_name: "Pat", last_name: "Twov", date_of_birth: "1980-01-01" })
      ).body.id;
      ids.otherPatient = (
        await call("POST", "/v2/patients", { first_name: "Oli", last_name: "Twov", date_of_birth: "1981-02-02" })
      ).body.id;
      const shift = await call("POST", `/v2/providers/${ids.provider}/schedules`, {
        clinic_id: ids.clinic,
        weekdays: ["MO", "TU", "WE", "TH", "FR"],
        start_time: "09:00",
        end_time: "17:00",
        effective_from: "2028-01-03",
      });
      expect(shift.status).toBe(201);
    });
    afterAll(() => rt.stop());

    it("book a slot GET /v2/slots offered; the appointment reads the same on v1 and the slot is gone", async () => {
      const slotsOf = async () =>
        (
          await call(
            "GET",
            `/v2/slots?provider_id=${ids.provider}&clinic_id=${ids.clinic}&appointment_type_id=${ids.type}&start_date=2028-03-06&days=1`,
          )
        ).body.data[0].slots as string[];
      const before = await slotsOf();
      expect(before[0]).toBe("2028-03-06T09:00:00-06:00");
      const booked = await book({ slot_start: before[0], notes: "first visit" });
      expect(booked.status).toBe(201);
      expect(booked.res.headers.get("location")).toMatch(new RegExp(`/v2/appointments/${booked.body.id}$`));
      expect(booked.body).toEqual({
        id: expect.stringMatching(/^[1-9][0-9]*$/),
        patient_id: ids.patient,
        provider_id: ids.provider,
        clinic_id: ids.clinic,
        service_case_id: null,
        appointment_type_id: ids.type,
        start: "2028-03-06T15:00:00.000Z",
        end: "2028-03-06T15:30:00.000Z",
        status: "scheduled",
        payment_mode: "SELF_PAY",
        telehealth_url: null,
        comments: null,
        notes: "first visit",
        cancellation: null,
        created_at: expect.any(String),
        updated_at: expect.any(String),
        warnings: [],
      });
      expect(await slotsOf()).not.toContain(before[0]);
      const v1 = await call("GET", `/apis/v1/appointment/${booked.body.id}`);
      expect(v1.body.data).toMatchObject({
        appointment_id: Number(booked.body.id),
        doctor_id: ids.userId,
        patient_id: Number(ids.patient),
        clinic_id: Number(ids.clinic),
        appointment_category: [Number(ids.type)],
        status: "SCHEDULED",
        appointment_notes: "first visit",
      });
      expect((await eventsOf(booked.body.id)).map((e) => e.event_type)).toEqual(["appointment.created"]);
    });

    it("give one 201 of 20 concurrent bookings of one slot, and SLOT_UNAVAILABLE naming the winner to the rest", async () => {
      const slot = "2028-03-07T10:00:00-06:00";
      const answers = await Promise.all(Array.from({ length: 20 }, () => book({ slot_start: slot })));
      const won = answers.filter((a) => a.status === 201);
      expect(won).toHaveLength(1);
      const lost = answers.filter((a) => a.status !== 201);
      expect(new Set(lost.map((a) => a.status))).toEqual(new Set([409]));
      for (const a of lost)
        expect(a.body.error).toMatchObject({
          code: "SLOT_UNAVAILABLE",
          details: { reason: "taken", conflicting_appointment_id: won[0]?.body.id },
        });
      const held = await call("GET", `/v2/appointments?from=${encodeURIComponent(slot)}&to=2028-03-07T16:30:00Z`);
      expect(held.body.data.map((a: { id: string }) => a.id)).toEqual([won[0]?.body.id]);
    });

    it("refuse a start outside working hours or inside a block unless the token may override", async () => {
      await writesNothing(async () => {
        const evening = await book({ start: "2028-03-08T18:00:00-06:00" });
        expect(evening.status).toBe(409);
        expect(evening.body.error).toMatchObject({
          code: "OUTSIDE_WORKING_HOURS",
          details: { reason: "outside_working_hours", start: "2028-03-09T00:00:00.000Z" },
        });
        // Working hours are per clinic: none are set at Denver.
        const denver = await book({ clinic_id: ids.otherClinic, start: "2028-03-08T10:00:00-07:00" });
        expect(denver.body.error).toMatchObject({
          code: "OUTSIDE_WORKING_HOURS",
          details: { reason: "no_working_hours" },
        });
        // A free start may end past the shift's end: refused too.
        const late = await book({ start: "2028-03-08T16:45:00-06:00" });
        expect(late.body.error.details.reason).toBe("outside_working_hours");
      });
      const block = await call("POST", `/v2/providers/${ids.provider}/blocks`, {
        start: "2028-03-08T12:00:00-06:00",
        end: "2028-03-08T13:00:00-06:00",
        reason: "Lunch",
      });
      const lunch = await book({ start: "2028-03-08T12:30:00-06:00" });
      expect(lunch.body.error).toMatchObject({
        code: "OUTSIDE_WORKING_HOURS",
        details: { reason: "blocked", block_id: block.body.id },
      });
      const inBlockSlot = await book({ slot_start: "2028-03-08T12:00:00-06:00" });
      expect(inBlockSlot.body.error).toMatchObject({ code: "SLOT_UNAVAILABLE", details: { reason: "blocked" } });
      const override = await rt.token({ userId: 101, scope: "appointments:write appointments:override" });
      const evening = await book({ start: "2028-03-08T18:00:00-06:00", end: "2028-03-08T18:45:00-06:00" }, override);
      expect(evening.status).toBe(201);
      expect(evening.body.end).toBe("2028-03-09T00:45:00.000Z");
      // The override never double-books.
      const clash = await book({ start: "2028-03-08T18:15:00-06:00" }, override);
      expect(clash.status).toBe(409);
      expect(clash.body.error.code).toBe("SCHEDULE_CONFLICT");
    });

    it("refuse bad bookings with 400 naming the field, writing nothing", async () => {
      await writesNothing(async () => {
        const noMode = await call("POST", "/v2/appointments", {
          patient_id: ids.patient,
          provider_id: ids.provider,
          clinic_id: ids.clinic,
          appointment_type_id: ids.type,
          start: "2028-03-09T10:00:00-06:00",
        });
        expect(noMode.status).toBe(400);
        expect(JSON.stringify(noMode.body.error)).toContain("payment_mode");
        const both = await book({ start: "2028-03-09T10:00:00-06:00", slot_start: "2028-03-09T10:00:00-06:00" });
        expect(both.status).toBe(400);
        expect(both.body.error.details.errors[0].field).toBe("start");
        const neither = await book({});
        expect(neither.body.error.details.errors[0].field).toBe("start");
        const backwards = await book({ start: "2028-03-09T10:00:00-06:00", end: "2028-03-09T09:00:00-06:00" });
        expect(backwards.status).toBe(400);
        expect(backwards.body.error.details.errors.map((e: { field: string }) => e.field)).toContain("end");
        const unknown = await book({
          provider_id: "999999",
          appointment_type_id: "888888",
          start: "2028-03-09T10:00:00-06:00",
        });
        expect(unknown.status).toBe(400);
        expect(unknown.body.error.code).toBe("UNKNOWN_REFERENCE");
        expect(unknown.body.error.details.errors.map((e: { field: string }) => e.field)).toEqual([
          "provider_id",
          "appointment_type_id",
        ]);
        const badCase = await book({ start: "2028-03-09T10:00:00-06:00", service_case_id: "CASE_X" });
        expect(badCase.status).toBe(400);
        expect(JSON.stringify(badCase.body.error)).toContain("service_case_id");
      });
    });

    it("cancel with a reason_key (label and fee from the reason), check in and out, and refuse what the state machine refuses", async () => {
      const a = await book({ slot_start: "2028-03-10T09:00:00-06:00" });
      const checkOut = await call("POST", `/v2/appointments/${a.body.id}/check-out`);
      expect(checkOut.status).toBe(409);
      expect(checkOut.body.error).toMatchObject({
        code: "INVALID_TRANSITION",
        details: { current_status: "SCHEDULED" },
      });
      const unknownReason = await call("POST", `/v2/appointments/${a.body.id}/cancel`, { reason_key: "NOPE" });
      expect(unknownReason.status).toBe(400);
      expect(unknownReason.body.error.details.errors[0].field).toBe("reason_key");
      const cancelled = await call("POST", `/v2/appointments/${a.body.id}/cancel`, {
        reason_key: "PATIENT_ILL",
        comment: "flu",
      });
      expect(cancelled.status).toBe(200);
      expect(cancelled.body).toMatchObject({
        status: "cancelled",
        cancellation: { reason_key: "PATIENT_ILL", reason_label: "Patient is ill", comment: "flu", fee: 15 },
      });
      const again = await call("POST", `/v2/appointments/${a.body.id}/cancel`, { reason_key: "PATIENT_ILL" });
      expect(again.status).toBe(409);
      expect((await call("GET", `/apis/v1/appointment/${a.body.id}`)).body.data).toMatchObject({
        status: "CANCELLED",
        cancellation_reason_key: "PATIENT_ILL",
        cancellation_reason_label: "Patient is ill",
        cancellation_fee: 15,
      });

      const b = await book({ slot_start: "2028-03-10T10:00:00-06:00" });
      expect((await call("POST", `/v2/appointments/${b.body.id}/check-in`)).body.status).toBe("checked_in");
      expect((await call("POST", `/v2/appointments/${b.body.id}/check-out`)).body.status).toBe("checked_out");
      expect((await eventsOf(b.body.id)).map((e) => e.event_type)).toEqual([
        "appointment.created",
        "appointment.updated",
        "appointment.updated",
      ]);
      expect((await call("POST", "/v2/appointments/99999999/check-in")).status).toBe(404);
    });

    it("read a v1 booking on v2 and move it on v2; both raise the same events", async () => {
      const v1 = await call("POST", "/apis/v1/appointment", {
        doctor_id: ids.userId,
        patient_id: Number(ids.otherPatient),
        clinic_id: Number(ids.clinic),
        appointment_category: [Number(ids.type)],
        timestamp: unix("2028-03-13T15:00:00Z"),
        end_timestamp: unix("2028-03-13T16:00:00Z"),
        payment_mode: "CASH",
      });
      expect(v1.body.code).toBe(2000);
      const id = String(v1.body.data.appointment_id);
      const read = await call("GET", `/v2/appointments/${id}`);
      expect(read.body).toMatchObject({
        id,
        provider_id: ids.provider,
        patient_id: ids.otherPatient,
        start: "2028-03-13T15:00:00.000Z",
        end: "2028-03-13T16:00:00.000Z",
        status: "scheduled",
        payment_mode: "CASH",
      });
      // A v2 slot booking over the v1 appointment is refused.
      const over = await book({ slot_start: "2028-03-13T10:30:00-05:00" });
      expect(over.body.error).toMatchObject({ code: "SLOT_UNAVAILABLE", details: { conflicting_appointment_id: id } });
      await call("POST", `/v2/appointments/${id}/cancel`, { reason_key: "PATIENT_ILL" });
      expect((await eventsOf(id)).map((e) => e.event_type)).toEqual(["appointment.created", "appointment.cancelled"]);
      expect(JSON.parse(String((await eventsOf(id))[1]?.data))).toEqual({
        organisation_id: 1,
        appointment_id: Number(id),
        patient_id: Number(ids.otherPatient),
        service_case_id: null,
        clinic_id: Number(ids.clinic),
      });
    });

    it("list with filters, pagination, sort, fields and expand", async () => {
      const all = await call("GET", `/v2/appointments?provider_id=${ids.provider}&per_page=100`);
      expect(all.status).toBe(200);
      const starts = all.body.data.map((a: { start: string }) => a.start);
      expect(starts).toEqual([...starts].sort());
      expect(all.body.pagination).toMatchObject({
        current_page: 1,
        total_count: all.body.data.length,
        has_next: false,
      });

      const page2 = await call(
        "GET",
        `/v2/appointments?provider_id=${ids.provider}&per_page=2&page=2&sort=start&order=desc`,
      );
      expect(page2.body.data.map((a: { id: string }) => a.id)).toEqual(
        [...all.body.data]
          .reverse()
          .slice(2, 4)
          .map((a: { id: string }) => a.id),
      );
      expect(page2.body.pagination).toMatchObject({
        current_page: 2,
        per_page: 2,
        has_previous: true,
        previous_page: 1,
      });

      const cancelled = await call("GET", "/v2/appointments?status=cancelled");
      expect(cancelled.body.data.length).toBeGreaterThanOrEqual(2);
      expect(cancelled.body.data.every((a: { status: string }) => a.status === "cancelled")).toBe(true);
      const theirs = await call("GET", `/v2/appointments?patient_id=${ids.otherPatient}`);
      expect(theirs.body.data).toHaveLength(1);
      const range = await call(
        "GET",
        `/v2/appointments?clinic_id=${ids.clinic}&from=2028-03-10T00:00:00-06:00&to=2028-03-11T00:00:00-06:00`,
      );
      expect(range.body.data.map((a: { start: string }) => a.start)).toEqual([
        "2028-03-10T15:00:00.000Z",
        "2028-03-10T16:00:00.000Z",
      ]);

      const slim = await call(
        "GET",
        `/v2/appointments?patient_id=${ids.otherPatient}&fields=status,start&expand=patient,provider`,
      );
      expect(slim.body.data[0]).toEqual({
        id: expect.any(String),
        status: "cancelled",
        start: "2028-03-13T15:00:00.000Z",
        patient: expect.objectContaining({ id: ids.otherPatient, first_name: "Oli" }),
        provider: expect.objectContaining({ id: ids.provider, user_id: String(ids.userId), last_name: "Booker" }),
      });
      const narrow = await rt.token({ scope: "appointments:read" });
      const denied = await call("GET", `/v2/appointments/${slim.body.data[0].id}?expand=patient`, undefined, narrow);
      expect(denied.status).toBe(403);
      expect(denied.body.error.details.required_scope).toBe("patients:read");
      expect((await call("GET", `/v2/appointments/${slim.body.data[0].id}`, undefined, narrow)).status).toBe(200);

      expect((await call("GET", "/v2/appointments?provider_id=999999")).status).toBe(404);
      expect((await call("GET", "/v2/appointments?clinic_id=999999")).status).toBe(404);
      const badStatus = await call("GET", "/v2/appointments?status=SCHEDULED");
      expect(badStatus.status).toBe(400);
      expect(badStatus.body.error).toMatchObject({ code: "INVALID_PARAMETER", details: { parameter: "status" } });
      expect((await call("GET", "/v2/appointments?per_page=101")).status).toBe(400);
      expect((await call("GET", "/v2/appointments?service_case_id=SERVICE_CASE_999999")).body.data).toEqual([]);
      const beyond = await call("GET", "/v2/appointments?service_case_id=SERVICE_CASE_99999999999");
      expect(beyond.status).toBe(400);
      expect(beyond.body.error.details.parameter).toBe("service_case_id");
      // Another organisation sees none of it.
      const foreign = await rt.token({ organisationId: 2, scope: "read write" });
      expect((await call("GET", `/v2/appointments/${slim.body.data[0].id}`, undefined, foreign)).status).toBe(404);
    });
  });
}
