import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines } from "../support/engines.js";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";

// Clinic restrictions (issue 46 section 2, docs/authentication.md "Clinic restrictions"): a token whose
// clinic_id_list is [A] walks every clinic-scoped route of the table at clinic A, and at clinic B is answered as if
// B's records did not exist (404, filtered lists, the unknown-clinic answer), changing nothing. On every engine this
// run has (SQLite; PostgreSQL and MariaDB through .ci/with-databases.sh).

interface Reply {
  status: number;
  body: any;
}

/** One clinic's records, made with an unrestricted token. */
interface Side {
  clinic: string;
  provider: string;
  userId: number;
  schedule: string;
  appointment: number;
  block: string;
  note: { context_id: string; assessment_submission_id: string };
  sheet: number;
  waitlist: string;
}

const UNKNOWN_CLINIC = "987654";
/** 2028-03-06 is a Monday; both providers work 09:00-17:00 there. */
const DAY = Math.floor(Date.parse("2028-03-06T15:00:00Z") / 1000);
const codeOf = (body: any): string | undefined => body?.error?.code ?? body?.error_code;

for (const engine of availableEngines()) {
  describe(`[${engine}] clinic restrictions`, () => {
    let rt: TestRuntime;
    let admin: string;
    /** The token restricted to clinic A: user 701 is clinic A's provider. */
    let restricted: string;
    const users = { A: 701, B: 702 };
    const at = { A: {} as Side, B: {} as Side };
    const shared = { patient: 0, type: "", reason: "PATIENT_ILL" };
    let slot = 0;

    const call = async (method: string, path: string, body?: unknown, token?: string): Promise<Reply> => {
      const res = await rt.call(method, path, { ...(body === undefined ? {} : { body }), token: token ?? restricted });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    };
    const asAdmin = (method: string, path: string, body?: unknown) => call(method, path, body, admin);
    /** An unrestricted token of the side's provider (SOAP notes are written by the token's user). */
    const asProvider = async (s: Side, method: string, path: string, body?: unknown) =>
      call(method, path, body, await rt.token({ userId: s.userId, scope: "read write" }));

    /** A new appointment at the side's clinic, an hour after the last one, booked unrestricted. */
    const appointmentAt = async (s: Side, token = admin): Promise<Reply> => {
      const start = DAY + 3600 * slot++;
      return call(
        "POST",
        "/apis/v1/appointment",
        {
          doctor_id: s.userId,
          patient_id: shared.patient,
          clinic_id: Number(s.clinic),
          appointment_category: [Number(shared.type)],
          timestamp: start,
          end_timestamp: start + 1800,
          payment_mode: "SELF_PAY",
        },
        token,
      );
    };
    const newAppointment = async (s: Side) => {
      const res = await appointmentAt(s);
      expect(res.status).toBe(200);
      return res.body.data.appointment_id as number;
    };
    const newNote = async (s: Side) => {
      const res = await asProvider(s, "POST", "/apis/hep/v2/soap-context", {
        patient_id: shared.patient,
        type: "FOLLOWUP_SOAP",
        appointment_id: await newAppointment(s),
      });
      expect(res.status).toBe(200);
      return res.body.data as Side["note"];
    };
    const newBlock = async (s: Side) => {
      const start = Date.parse("2028-04-03T12:00:00Z") + 86_400_000 * slot++;
      const res = await asAdmin("POST", `/v2/providers/${s.provider}/blocks`, {
        start: new Date(start).toISOString(),
        end: new Date(start + 3_600_000).toISOString(),
        reason: "Team meeting",
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.id as string;
    };

    /** The rows a refused write must leave as they were (clinic-scoped tables, and the outbox's events). */
    const fingerprint = async () => {
      const tables = [
        "appointments",
        "appointment_history",
        "soap_notes",
        "soap_note_history",
        "form_submissions",
        "treatment_sheets",
        "provider_schedules",
        "provider_blocks",
        "waitlist_requests",
        "clinics",
        "patients",
        "cases",
        "providers",
        "staff",
        "api_clients",
        "outbox",
      ];
      const rows = await Promise.all(tables.map((t) => rt.rawRows(`select * from ${t} order by id`)));
      // Left out: what background work and token grants change on their own (dispatch and last-token times).
      const volatile = new Set(["dispatched_at", "last_token_at"]);
      return JSON.stringify(rows, (k, v) => (volatile.has(k) ? undefined : typeof v === "bigint" ? String(v) : v));
    };

    beforeAll(async () => {
      // Background jobs (the waitlist matcher) poll once a minute here, so they leave the compared rows alone.
      rt = await startTestRuntime(
        { OPENPRACTICE_PLAN_LIMITS: '{"free":100000}', OPENPRACTICE_WORKER_POLL_MS: "60000" },
        { engine },
      );
      admin = await rt.token({ scope: "admin read write" });
      for (const side of ["A", "B"] as const) {
        const s = at[side];
        s.userId = users[side];
        s.clinic = (
          await asAdmin("POST", "/v2/clinics", { name: `Clinic ${side}`, time_zone: "America/Chicago" })
        ).body.id;
        s.provider = (
          await asAdmin("POST", "/v2/providers", {
            user_id: String(s.userId),
            first_name: "Pat",
            last_name: `Provider ${side}`,
            clinic_ids: [s.clinic],
          })
        ).body.id;
        const shift = await asAdmin("POST", `/v2/providers/${s.provider}/schedules`, {
          clinic_id: s.clinic,
          weekdays: ["MO", "TU", "WE", "TH", "FR"],
          start_time: "09:00",
          end_time: "17:00",
          effective_from: "2028-01-03",
        });
        expect(shift.status).toBe(201);
        s.schedule = shift.body.id;
      }
      // The organisation exists from its first write (the clinics above).
      await rt.runtime.practice.storage.repositories.catalog.enableSpecialization(1, "PT");
      restricted = await rt.token({ userId: users.A, scope: "read write", clinicIds: [Number(at.A.clinic)] });
      shared.type = (
        await asAdmin("POST", "/v2/appointment-types", { name: "Visit", type: "IN_PERSON", duration_minutes: 30 })
      ).body.id;
      expect(
        (
          await asAdmin("POST", "/v2/cancellation-reasons", {
            reason_key: shared.reason,
            reason_label: "Patient is ill",
            cancellation_fee: 0,
          })
        ).status,
      ).toBe(201);
      shared.patient = Number(
        (await asAdmin("POST", "/v2/patients", { first_name: "Ada", last_name: "Both", date_of_birth: "1980-01-01" }))
          .body.id,
      );
      for (const s of [at.A, at.B]) {
        s.appointment = await newAppointment(s);
        s.block = await newBlock(s);
        s.note = await newNote(s);
        const sheet = await asProvider(s, "POST", "/apis/v1/treatment-sheet", {
          patient_id: String(shared.patient),
          soap_context_id: s.note.context_id,
          treatments: [],
        });
        expect(sheet.status).toBe(200);
        s.sheet = sheet.body.data.treatment_sheet_id ?? sheet.body.data.id;
        const request = await asAdmin("POST", "/v2/waitlist-requests", {
          patient_id: String(shared.patient),
          appointment_type_id: shared.type,
          payment_mode: "SELF_PAY",
          clinic_ids: [s.clinic],
        });
        expect(request.status).toBe(201);
        s.waitlist = request.body.id;
      }
    });
    afterAll(() => rt.stop());

    // Reads and writes of one record: passes at clinic A (any 2xx, or the answer `reached` names), and at clinic B
    // answers 404 with the resource's own not-found code, changing nothing.
    // `prepare` makes a fresh record of the side (unrestricted) for a row whose call uses one up.
    const byRecord: Array<{
      route: string;
      prepare?: (s: Side) => Promise<any>;
      run: (s: Side, fresh: any) => Promise<Reply>;
      b: string;
      /** The HTTP status of the other clinic's answer when it is not 404 (v1 contracts answer some errors otherwise). */
      bStatus?: number;
      reached?: string;
    }> = [
      {
        route: "GET /v2/appointments/:id",
        run: (s) => call("GET", `/v2/appointments/${s.appointment}`),
        b: "APPOINTMENT_NOT_FOUND",
      },
      {
        route: "GET /apis/v1/appointment/:id",
        run: (s) => call("GET", `/apis/v1/appointment/${s.appointment}`),
        b: "APPOINTMENT_NOT_FOUND",
      },
      {
        route: "GET /apis/v1/appointment/:id/history",
        run: (s) => call("GET", `/apis/v1/appointment/${s.appointment}/history`),
        b: "APPOINTMENT_NOT_FOUND",
      },
      {
        route: "POST /v2/appointments/:id/cancel",
        prepare: newAppointment,
        run: (_s, id) => call("POST", `/v2/appointments/${id}/cancel`, { reason_key: shared.reason }),
        b: "APPOINTMENT_NOT_FOUND",
      },
      {
        route: "POST /v2/appointments/:id/check-in",
        prepare: newAppointment,
        run: (_s, id) => call("POST", `/v2/appointments/${id}/check-in`),
        b: "APPOINTMENT_NOT_FOUND",
      },
      {
        route: "POST /apis/v1/appointment/appointment-cancel/:id",
        prepare: newAppointment,
        run: (_s, id) =>
          call("POST", `/apis/v1/appointment/appointment-cancel/${id}`, {
            cancellation_reason_key: shared.reason,
            cancellation_reason_label: "Patient is ill",
          }),
        b: "APPOINTMENT_NOT_FOUND",
      },
      {
        route: "POST /apis/v1/appointment/:id/reschedule",
        prepare: newAppointment,
        run: async (_s, id) => {
          const start = DAY + 3600 * slot++;
          return call("POST", `/apis/v1/appointment/${id}/reschedule`, {
            timestamp: start,
            end_timestamp: start + 1800,
          });
        },
        b: "APPOINTMENT_NOT_FOUND",
      },
      {
        route: "POST /apis/v1/appointment/:id/check-in",
        prepare: newAppointment,
        run: (_s, id) => call("POST", `/apis/v1/appointment/${id}/check-in`),
        b: "APPOINTMENT_NOT_FOUND",
      },
      {
        route: "GET /apis/v1/treatment-catalog/latest?appointment_id",
        run: (s) => call("GET", `/apis/v1/treatment-catalog/latest?appointment_id=${s.appointment}&speciality=PT`),
        b: "APPOINTMENT_NOT_FOUND",
      },
      {
        route: "GET /v2/schedules/:id",
        run: (s) => call("GET", `/v2/schedules/${s.schedule}`),
        b: "SCHEDULE_NOT_FOUND",
      },
      {
        route: "POST /v2/providers/:id/schedules (replaces_schedule_id)",
        run: (s) =>
          call("POST", `/v2/providers/${s.provider}/schedules`, {
            clinic_id: s.clinic,
            weekdays: ["MO", "TU", "WE", "TH", "FR"],
            start_time: "09:00",
            end_time: "17:00",
            effective_from: "2029-01-01",
            replaces_schedule_id: s.schedule,
          }),
        b: "CLINIC_NOT_FOUND",
      },
      {
        route: "GET /v2/providers/:id/blocks",
        run: (s) => call("GET", `/v2/providers/${s.provider}/blocks?from=2028-04-01T00:00:00Z&to=2028-04-30T00:00:00Z`),
        b: "PROVIDER_NOT_FOUND",
      },
      {
        route: "POST /v2/providers/:id/blocks",
        run: (s) =>
          call("POST", `/v2/providers/${s.provider}/blocks`, {
            start: "2028-05-01T12:00:00Z",
            end: "2028-05-01T13:00:00Z",
            reason: "Training",
          }),
        b: "PROVIDER_NOT_FOUND",
      },
      {
        route: "DELETE /v2/blocks/:id",
        prepare: newBlock,
        run: (_s, id) => call("DELETE", `/v2/blocks/${id}`),
        b: "BLOCK_NOT_FOUND",
      },
      {
        route: "GET /v2/slots",
        run: (s) =>
          call(
            "GET",
            `/v2/slots?provider_id=${s.provider}&clinic_id=${s.clinic}&slot_length=30&start_date=2028-03-07&days=1`,
          ),
        b: "CLINIC_NOT_FOUND",
      },
      { route: "GET /v2/clinics/:id", run: (s) => call("GET", `/v2/clinics/${s.clinic}`), b: "CLINIC_NOT_FOUND" },
      {
        route: "PATCH /v2/clinics/:id",
        run: (s) => call("PATCH", `/v2/clinics/${s.clinic}`, { phone: "555-0100" }),
        b: "CLINIC_NOT_FOUND",
      },
      {
        route: "POST /apis/v1/clinic/:id/settings",
        run: (s) => call("POST", `/apis/v1/clinic/${s.clinic}/settings`, { allow_double_booking: false }),
        b: "CLINIC_NOT_FOUND",
        bStatus: 400,
      },
      {
        route: "GET /apis/v1/soap-context/:id",
        run: (s) => call("GET", `/apis/v1/soap-context/${s.note.context_id}`),
        b: "SOAP_NOTE_NOT_FOUND",
      },
      {
        route: "GET /apis/v1/soap-context/:id/signatures",
        run: (s) => call("GET", `/apis/v1/soap-context/${s.note.context_id}/signatures`),
        b: "SOAP_NOTE_NOT_FOUND",
      },
      {
        route: "GET /apis/v1/soap-context/:id/history",
        run: (s) => call("GET", `/apis/v1/soap-context/${s.note.context_id}/history`),
        b: "SOAP_NOTE_NOT_FOUND",
      },
      {
        route: "GET /apis/v1/soap-context/:id/claim",
        run: (s) => call("GET", `/apis/v1/soap-context/${s.note.context_id}/claim`),
        reached: "CLAIM_NOT_FOUND",
        b: "SOAP_NOTE_NOT_FOUND",
      },
      {
        route: "GET /apis/v1/soap-context/:id/summary.pdf",
        run: (s) => call("GET", `/apis/v1/soap-context/${s.note.context_id}/summary.pdf`),
        reached: "DOCUMENT_NOT_FOUND",
        b: "SOAP_NOTE_NOT_FOUND",
      },
      {
        route: "POST /apis/v1/soap-context/:id/summary/render",
        run: (s) => call("POST", `/apis/v1/soap-context/${s.note.context_id}/summary/render`),
        reached: "INVALID_TRANSITION",
        b: "SOAP_NOTE_NOT_FOUND",
      },
      {
        route: "POST /apis/v1/soap-context/:id/sign",
        run: (s) => call("POST", `/apis/v1/soap-context/${s.note.context_id}/sign`),
        reached: "NOTE_INCOMPLETE",
        b: "SOAP_NOTE_NOT_FOUND",
      },
      {
        route: "POST /apis/v1/soap-context/:id (complete)",
        run: (s) =>
          call("POST", `/apis/v1/soap-context/${s.note.context_id}`, {
            completed: true,
            status: "COMPLETED",
            completed_at: null,
          }),
        reached: "NOTE_INCOMPLETE",
        b: "SOAP_NOTE_NOT_FOUND",
      },
      {
        route: "GET /apis/v1/form-data/:submission_id",
        run: (s) => call("GET", `/apis/v1/form-data/${s.note.assessment_submission_id}`),
        b: "FORM_SUBMISSION_NOT_FOUND",
      },
      {
        route: "POST /apis/v1/form-data/partial",
        prepare: newNote,
        run: (_s, n) => {
          return call("POST", "/apis/v1/form-data/partial", {
            submissionId: n.subjective_submission_id,
            soapContextId: n.context_id,
            partialResponse: { "response.Subjective.history.chief_complaint": "Knee pain" },
            version: 2,
          });
        },
        b: "FORM_SUBMISSION_NOT_FOUND",
      },
      {
        route: "POST /apis/v1/treatment-sheet",
        prepare: newNote,
        run: (_s, n) =>
          call("POST", "/apis/v1/treatment-sheet", {
            patient_id: String(shared.patient),
            soap_context_id: n.context_id,
            treatments: [],
          }),
        b: "SOAP_NOTE_NOT_FOUND",
      },
      {
        route: "GET /apis/v1/treatment-sheet/:id",
        run: (s) => call("GET", `/apis/v1/treatment-sheet/${s.sheet}`),
        b: "TREATMENT_SHEET_NOT_FOUND",
      },
      {
        route: "POST /apis/v1/treatment-sheet/:id",
        run: (s) => call("POST", `/apis/v1/treatment-sheet/${s.sheet}`, { treatments: [] }),
        b: "TREATMENT_SHEET_NOT_FOUND",
      },
      {
        route: "POST /apis/hep/v2/soap-context (appointment_id)",
        run: (s) =>
          call("POST", "/apis/hep/v2/soap-context", {
            patient_id: shared.patient,
            type: "FOLLOWUP_SOAP",
            appointment_id: s.appointment,
          }),
        b: "APPOINTMENT_NOT_FOUND",
        bStatus: 200,
      },
      {
        route: "GET /v2/waitlist-requests/:id",
        run: (s) => call("GET", `/v2/waitlist-requests/${s.waitlist}`),
        b: "WAITLIST_REQUEST_NOT_FOUND",
      },
      {
        route: "PATCH /v2/waitlist-requests/:id",
        run: (s) => call("PATCH", `/v2/waitlist-requests/${s.waitlist}`, { notes: "mornings" }),
        b: "WAITLIST_REQUEST_NOT_FOUND",
      },
      {
        route: "POST /v2/waitlist-requests/:id/accept-offer",
        run: (s) => call("POST", `/v2/waitlist-requests/${s.waitlist}/accept-offer`),
        reached: "INVALID_TRANSITION",
        b: "WAITLIST_REQUEST_NOT_FOUND",
      },
      {
        route: "DELETE /v2/waitlist-requests/:id",
        prepare: async (s) =>
          (
            await asAdmin("POST", "/v2/waitlist-requests", {
              patient_id: String(shared.patient),
              appointment_type_id: shared.type,
              payment_mode: "SELF_PAY",
              clinic_ids: [s.clinic],
            })
          ).body.id,
        run: (_s, id) => call("DELETE", `/v2/waitlist-requests/${id}`),
        b: "WAITLIST_REQUEST_NOT_FOUND",
      },
    ];

    for (const row of byRecord) {
      it(`${row.route}: reached at the token's clinic, 404 ${row.b} at another, which is left as it was`, async () => {
        const a = await row.run(at.A, await row.prepare?.(at.A));
        if (row.reached) expect([a.status, codeOf(a.body)]).toEqual([expect.any(Number), row.reached]);
        else expect(a.status, JSON.stringify(a.body)).toBeLessThan(300);
        const fresh = await row.prepare?.(at.B);
        const before = await fingerprint();
        const b = await row.run(at.B, fresh);
        expect([b.status, codeOf(b.body)]).toEqual([row.bStatus ?? 404, row.b]);
        expect(await fingerprint()).toBe(before);
      });
    }

    // Writes that name a clinic: at clinic A they pass; naming clinic B they get exactly the answer an unknown
    // clinic gets, so the token learns nothing of B; nothing is written either way it is refused.
    const namingClinic: Array<{ route: string; run: (clinic: string, s: Side) => Promise<Reply> }> = [
      {
        route: "POST /v2/appointments",
        run: (clinic, s) =>
          call("POST", "/v2/appointments", {
            patient_id: String(shared.patient),
            provider_id: s.provider,
            clinic_id: clinic,
            appointment_type_id: shared.type,
            payment_mode: "SELF_PAY",
            // Weekdays of June 2028 at 10:00 in Chicago (15:00Z), inside both providers' hours.
            start: new Date(Date.parse("2028-06-05T15:00:00Z") + 86_400_000 * (slot++ % 5)).toISOString(),
          }),
      },
      {
        route: "POST /apis/v1/appointment",
        run: (clinic, s) => appointmentAt({ ...s, clinic }, restricted),
      },
      {
        route: "POST /v2/providers/:id/schedules",
        run: (clinic, s) =>
          call("POST", `/v2/providers/${s.provider}/schedules`, {
            clinic_id: clinic,
            weekdays: ["SA"],
            start_time: "09:00",
            end_time: "12:00",
            effective_from: `2028-0${1 + (slot++ % 9)}-01`,
          }),
      },
      {
        route: "POST /v2/waitlist-requests",
        run: (clinic) =>
          call("POST", "/v2/waitlist-requests", {
            patient_id: String(shared.patient),
            appointment_type_id: shared.type,
            payment_mode: "SELF_PAY",
            clinic_ids: [clinic],
          }),
      },
      {
        route: "GET /v2/appointments?clinic_id",
        run: (clinic) => call("GET", `/v2/appointments?clinic_id=${clinic}`),
      },
      {
        route: "POST /apis/v1/patient (clinic_id)",
        run: (clinic) =>
          call("POST", "/apis/v1/patient", {
            first_name: "Reg",
            last_name: `Istered${slot++}`,
            date_of_birth: "1990-01-01",
            clinic_id: Number(clinic),
          }),
      },
      {
        route: "POST /v2/cases (clinic_id)",
        run: (clinic) =>
          call("POST", "/v2/cases", {
            patient_id: String(shared.patient),
            case_title: "Knee",
            specialization: "PT",
            clinic_id: clinic,
          }),
      },
    ];

    for (const row of namingClinic) {
      it(`${row.route}: passes at the token's clinic; naming another clinic answers as an unknown clinic does`, async () => {
        const a = await row.run(at.A.clinic, at.A);
        expect(a.status, JSON.stringify(a.body)).toBeLessThan(300);
        const before = await fingerprint();
        const unknown = await row.run(UNKNOWN_CLINIC, at.B);
        const b = await row.run(at.B.clinic, at.B);
        expect(b.status).toBeGreaterThanOrEqual(400);
        expect([b.status, codeOf(b.body)]).toEqual([unknown.status, codeOf(unknown.body)]);
        expect(await fingerprint()).toBe(before);
      });
    }

    // Lists filter in the query: the other clinic's records are neither listed nor counted, on every page.
    interface ListRow {
      route: string;
      path: string;
      id: (s: Side) => string;
      items: (body: any) => any[];
      idOf: (x: any) => string;
      total: (body: any) => number;
    }
    /** A v2 list: `data` of records with `id`, `pagination.total_count`. */
    const v2 = (route: string, path: string, id: (s: Side) => string): ListRow => ({
      route,
      path,
      id,
      items: (b) => b.data,
      idOf: (x) => x.id,
      total: (b) => b.pagination.total_count,
    });
    /** A v1 list: the envelope's `data[key]`, `data.pagination.total_count`. */
    const v1 = (
      route: string,
      path: string,
      key: string,
      id: (s: Side) => string,
      idOf: (x: any) => string,
    ): ListRow => ({
      route,
      path,
      id,
      items: (b) => b.data[key],
      idOf,
      total: (b) => b.data.pagination.total_count,
    });
    const lists: ListRow[] = [
      v2("GET /v2/appointments", "/v2/appointments?per_page=100", (s) => String(s.appointment)),
      v1(
        "GET /apis/v1/appointments",
        "/apis/v1/appointments?size=100",
        "appointments",
        (s) => String(s.appointment),
        (x) => String(x.appointment_id),
      ),
      // An empty path: the schedules of both providers, read as one list.
      v2("GET /v2/providers/:id/schedules (each provider's)", "", (s) => s.schedule),
      v2("GET /v2/clinics", "/v2/clinics?per_page=100", (s) => s.clinic),
      {
        route: "GET /apis/v1/clinics",
        path: "/apis/v1/clinics",
        id: (s) => s.clinic,
        items: (b) => b.data,
        idOf: (x) => String(x.clinic_id ?? x.id),
        total: (b) => b.data.length,
      },
      v1(
        "GET /apis/v1/soap-context",
        "/apis/v1/soap-context?size=100&patient_id=PATIENT",
        "notes",
        (s) => s.note.context_id,
        (x) => x.context_id,
      ),
      v1(
        "GET /apis/v1/soap-context/search",
        "/apis/v1/soap-context/search?size=100",
        "notes",
        (s) => s.note.context_id,
        (x) => x.context_id,
      ),
      v2("GET /v2/waitlist-requests", "/v2/waitlist-requests?per_page=100", (s) => s.waitlist),
    ];

    for (const row of lists) {
      it(`${row.route}: lists and counts the token's clinic only; unrestricted, both`, async () => {
        const read = async (token: string) => {
          if (row.path) return call("GET", row.path.replace("PATIENT", String(shared.patient)), undefined, token);
          const pages = await Promise.all(
            [at.A, at.B].map((s) =>
              call("GET", `/v2/providers/${s.provider}/schedules?per_page=100`, undefined, token),
            ),
          );
          for (const p of pages) expect(p.status).toBe(200);
          return {
            status: 200,
            body: {
              data: pages.flatMap((p) => p.body.data),
              pagination: { total_count: pages.reduce((n, p) => n + p.body.pagination.total_count, 0) },
            },
          };
        };
        const mine = await read(restricted);
        const all = await read(admin);
        expect(mine.status, JSON.stringify(mine.body)).toBe(200);
        const ids = row.items(mine.body).map(row.idOf);
        expect(ids).toContain(row.id(at.A));
        expect(ids).not.toContain(row.id(at.B));
        expect(row.items(all.body).map(row.idOf)).toEqual(expect.arrayContaining([row.id(at.A), row.id(at.B)]));
        expect(row.total(mine.body)).toBe(ids.length);
        expect(row.total(all.body)).toBeGreaterThan(row.total(mine.body));
      });
    }

    it("a page of one counts the token's records only (the filter is in the query, not after paging)", async () => {
      const first = await call("GET", "/v2/appointments?per_page=1&page=1");
      const all = await call("GET", "/v2/appointments?per_page=100");
      expect(first.body.pagination.total_count).toBe(all.body.data.length);
      const seen = [];
      for (let page = 1; page <= all.body.pagination.total_count; page++)
        seen.push(...(await call("GET", `/v2/appointments?per_page=1&page=${page}`)).body.data.map((a: any) => a.id));
      expect(seen.sort()).toEqual(all.body.data.map((a: any) => a.id).sort());
    });

    it("a waitlist request of any clinic is reached; one written restricted without clinic_ids gets the token's", async () => {
      const any = await asAdmin("POST", "/v2/waitlist-requests", {
        patient_id: String(shared.patient),
        appointment_type_id: shared.type,
        payment_mode: "SELF_PAY",
      });
      expect(any.body.clinic_ids).toEqual([]);
      expect((await call("GET", `/v2/waitlist-requests/${any.body.id}`)).status).toBe(200);
      const own = await call("POST", "/v2/waitlist-requests", {
        patient_id: String(shared.patient),
        appointment_type_id: shared.type,
        payment_mode: "SELF_PAY",
      });
      expect(own.status).toBe(201);
      expect(own.body.clinic_ids).toEqual([at.A.clinic]);
      // A request naming both clinics is reached, and changed without touching the clinic it names outside the token's.
      const both = await asAdmin("POST", "/v2/waitlist-requests", {
        patient_id: String(shared.patient),
        appointment_type_id: shared.type,
        payment_mode: "SELF_PAY",
        clinic_ids: [at.A.clinic, at.B.clinic],
      });
      const noted = await call("PATCH", `/v2/waitlist-requests/${both.body.id}`, { notes: "afternoons" });
      expect([noted.status, noted.body.notes, noted.body.clinic_ids]).toEqual([
        200,
        "afternoons",
        [at.A.clinic, at.B.clinic],
      ]);
      const widened = await call("PATCH", `/v2/waitlist-requests/${own.body.id}`, {
        clinic_ids: [at.A.clinic, at.B.clinic],
      });
      expect([widened.status, codeOf(widened.body)]).toEqual([400, "UNKNOWN_REFERENCE"]);
    });

    it("organisation-wide records stay readable: patients, providers and staff of every clinic, cases", async () => {
      expect((await call("GET", `/v2/patients/${shared.patient}`)).status).toBe(200);
      expect((await call("GET", `/v2/providers/${at.B.provider}`)).status).toBe(200);
      const providers = (await call("GET", "/v2/providers?per_page=100")).body.data.map((p: any) => p.id);
      expect(providers).toEqual(expect.arrayContaining([at.A.provider, at.B.provider]));
    });

    it("a restricted token cannot add a clinic or read the audit trail (403), and changes no provider or staff member of another clinic", async () => {
      const restrictedAdmin = await rt.token({
        userId: 9,
        scope: "admin read write",
        clinicIds: [Number(at.A.clinic)],
      });
      const before = await fingerprint();
      const clinic = await call(
        "POST",
        "/v2/clinics",
        { name: "Clinic C", time_zone: "America/Chicago" },
        restrictedAdmin,
      );
      expect([clinic.status, codeOf(clinic.body)]).toEqual([403, "INSUFFICIENT_PERMISSIONS"]);
      const audit = await call("GET", "/v2/audit-events", undefined, restrictedAdmin);
      expect([audit.status, codeOf(audit.body)]).toEqual([403, "INSUFFICIENT_PERMISSIONS"]);
      expect((await call("GET", "/v2/audit-events", undefined, admin)).status).toBe(200);
      const providerB = await call("PATCH", `/v2/providers/${at.B.provider}`, { last_name: "Moved" }, restrictedAdmin);
      expect([providerB.status, codeOf(providerB.body)]).toEqual([403, "INSUFFICIENT_PERMISSIONS"]);
      const widen = await call(
        "PATCH",
        `/v2/providers/${at.A.provider}`,
        { clinic_ids: [at.A.clinic, at.B.clinic] },
        restrictedAdmin,
      );
      expect([widen.status, codeOf(widen.body)]).toEqual([403, "INSUFFICIENT_PERMISSIONS"]);
      const staffB = await asAdmin("POST", "/v2/staff", {
        first_name: "Front",
        last_name: "Desk",
        email: `desk-${engine}@example.org`,
        roles: ["front_desk"],
        clinic_ids: [at.B.clinic],
      });
      expect(staffB.status).toBe(201);
      const afterStaff = await fingerprint();
      for (const [method, body] of [
        ["PATCH", { phone: "555-0101" }],
        ["DELETE", undefined],
      ] as const) {
        const refused = await call(method, `/v2/staff/${staffB.body.id}`, body, restrictedAdmin);
        expect([refused.status, codeOf(refused.body)]).toEqual([403, "INSUFFICIENT_PERMISSIONS"]);
      }
      expect(await fingerprint()).toBe(afterStaff);
      expect(before).not.toBe(afterStaff);
      const own = await call("PATCH", `/v2/providers/${at.A.provider}`, { last_name: "Provider A" }, restrictedAdmin);
      expect(own.status).toBe(200);
    });

    it("a restricted token's writes emit the same events as anyone's", async () => {
      const booked = await appointmentAt(at.A, restricted);
      expect(booked.status).toBe(200);
      const events = await rt.rawRows("select event_type, data from outbox where event_type = 'appointment.created'");
      const mine = events.filter((e) => JSON.parse(String(e.data)).appointment_id === booked.body.data.appointment_id);
      expect(mine).toHaveLength(1);
      expect(JSON.parse(String(mine[0]!.data)).clinic_id).toBe(Number(at.A.clinic));
    });

    describe("a clinic-restricted administrator cannot widen an API client", () => {
      let restrictedAdmin: string;
      const clients = { unrestricted: "", both: "", own: "" };
      const secrets: Record<string, string> = {};
      const tokenWith = async (clientId: string, secret: string) => {
        const res = await fetch(`${rt.url}/oauth/token`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ grant_type: "client_credentials", client_id: clientId, client_secret: secret }),
        });
        return res.status;
      };

      beforeAll(async () => {
        restrictedAdmin = await rt.token({ userId: 9, scope: "admin read write", clinicIds: [Number(at.A.clinic)] });
        for (const [key, clinicIds] of [
          ["unrestricted", []],
          ["both", [at.A.clinic, at.B.clinic]],
          ["own", [at.A.clinic]],
        ] as const) {
          const made = await asAdmin("POST", "/v2/api-clients", {
            name: `client ${key}`,
            scopes: ["admin", "read", "write"],
            clinic_ids: clinicIds,
          });
          expect(made.status).toBe(201);
          clients[key] = made.body.id;
          secrets[key] = made.body.client_secret;
          secrets[`${key}:client_id`] = made.body.client_id;
        }
      });

      const changes: Array<[string, string, (id: string) => string, unknown]> = [
        ["POST", "rotate-secret", (id) => `/v2/api-clients/${id}/rotate-secret`, { grace_period_seconds: 0 }],
        ["PATCH", "PATCH", (id) => `/v2/api-clients/${id}`, { name: "renamed" }],
        ["DELETE", "DELETE (revoke)", (id) => `/v2/api-clients/${id}`, undefined],
      ];
      for (const [method, what, path, body] of changes) {
        it(`${what}: 403 on a client wider than the caller (unrestricted, or with a clinic outside its list)`, async () => {
          const before = await fingerprint();
          for (const key of ["unrestricted", "both"] as const) {
            const refused = await call(method, path(clients[key]), body, restrictedAdmin);
            expect([refused.status, codeOf(refused.body)]).toEqual([403, "INSUFFICIENT_PERMISSIONS"]);
            expect(refused.body.error.details.allowed_clinic_ids).toEqual([Number(at.A.clinic)]);
            // The secret it had still obtains a token: nothing was rotated, renamed or revoked.
            expect(await tokenWith(secrets[`${key}:client_id`]!, secrets[key]!)).toBe(200);
          }
          expect(await fingerprint()).toBe(before);
        });
      }

      it("PATCH cannot widen its own clinic's client: clinic_ids outside its list, or none, are refused", async () => {
        for (const clinicIds of [[at.B.clinic], [at.A.clinic, at.B.clinic], []]) {
          const refused = await call(
            "PATCH",
            `/v2/api-clients/${clients.own}`,
            { clinic_ids: clinicIds },
            restrictedAdmin,
          );
          expect([refused.status, codeOf(refused.body)]).toEqual([403, "INSUFFICIENT_PERMISSIONS"]);
        }
      });

      it("rotates, changes and revokes a client within its clinics", async () => {
        const rotated = await call(
          "POST",
          `/v2/api-clients/${clients.own}/rotate-secret`,
          { grace_period_seconds: 0 },
          restrictedAdmin,
        );
        expect(rotated.status).toBe(200);
        expect(await tokenWith(secrets["own:client_id"]!, rotated.body.client_secret)).toBe(200);
        const renamed = await call(
          "PATCH",
          `/v2/api-clients/${clients.own}`,
          { name: "front desk app" },
          restrictedAdmin,
        );
        expect([renamed.status, renamed.body.name, renamed.body.clinic_ids]).toEqual([
          200,
          "front desk app",
          [at.A.clinic],
        ]);
        const revoked = await call("DELETE", `/v2/api-clients/${clients.own}`, undefined, restrictedAdmin);
        expect([revoked.status, revoked.body.status]).toEqual([200, "revoked"]);
      });
    });
  });
}
