import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines } from "../support/engines.js";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";

// /v2/waitlist-requests (spec 4.7): create, read, list, change, cancel and the bad input around them, on every engine
// this run has. Offers and acceptance: test/http/waitlist-week.test.ts and test/core/waitlist.test.ts.
for (const engine of availableEngines()) {
  describe(`[${engine}] v2 waitlist requests`, () => {
    let rt: TestRuntime;
    const ids = { clinic: "", provider: "", type: "", patient: "", other: "" };
    const json = async (res: Response) => ({ status: res.status, body: await res.json() });
    const call = (method: string, path: string, body?: unknown, token?: string) =>
      rt.call(method, path, { ...(body === undefined ? {} : { body }), ...(token ? { token } : {}) }).then(json);
    const count = async () => Number(await rt.scalar("select count(*) from waitlist_requests"));

    beforeAll(async () => {
      rt = await startTestRuntime({ OPENPRACTICE_PLAN_LIMITS: '{"free":100000}' }, { engine });
      const admin = await rt.token({ scope: "admin read write" });
      ids.clinic = (await call("POST", "/v2/clinics", { name: "Main", time_zone: "America/Denver" })).body.id;
      ids.provider = (
        await call("POST", "/v2/providers", {
          user_id: "901",
          first_name: "W",
          last_name: "L",
          clinic_ids: [ids.clinic],
        })
      ).body.id;
      ids.type = (
        await call("POST", "/v2/appointment-types", { name: "Eval", type: "IN_PERSON", duration_minutes: 45 }, admin)
      ).body.id;
      ids.patient = (
        await call("POST", "/v2/patients", { first_name: "A", last_name: "W", date_of_birth: "1970-01-01" })
      ).body.id;
      ids.other = (
        await call("POST", "/v2/patients", { first_name: "B", last_name: "W", date_of_birth: "1971-01-01" })
      ).body.id;
    });
    afterAll(() => rt.stop());

    it("creates with defaults, reads, lists by priority then age, changes and cancels (kept, readable)", async () => {
      const created = await call("POST", "/v2/waitlist-requests", {
        patient_id: ids.patient,
        appointment_type_id: ids.type,
        payment_mode: "SELF_PAY",
      });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.any(String),
        patient_id: ids.patient,
        service_case_id: null,
        provider_ids: [],
        clinic_ids: [],
        appointment_type_id: ids.type,
        preferred_days: [],
        time_windows: [],
        earliest_date: null,
        latest_date: null,
        priority: "normal",
        payment_mode: "SELF_PAY",
        notes: null,
        status: "waiting",
        appointment_id: null,
        offer: null,
        offers_made: 0,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      const urgent = await call("POST", "/v2/waitlist-requests", {
        patient_id: ids.other,
        appointment_type_id: ids.type,
        payment_mode: "CASH",
        priority: "high",
        provider_ids: [ids.provider],
        clinic_ids: [ids.clinic],
      });
      const list = await call("GET", "/v2/waitlist-requests");
      expect(list.body.data.map((r: { id: string }) => r.id)).toEqual([urgent.body.id, created.body.id]);
      expect(list.body.pagination).toMatchObject({ total_count: 2, per_page: 25, has_next: false });
      const paged = await call("GET", "/v2/waitlist-requests?per_page=1&page=2");
      expect(paged.body.data.map((r: { id: string }) => r.id)).toEqual([created.body.id]);
      expect((await call("GET", `/v2/waitlist-requests?patient_id=${ids.other}`)).body.data).toHaveLength(1);

      const patched = await call("PATCH", `/v2/waitlist-requests/${created.body.id}`, {
        preferred_days: ["TU", "TH"],
        time_windows: [{ start: "07:30", end: "11:00" }],
        latest_date: "2028-06-30",
        notes: "Can come early",
      });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({
        preferred_days: ["TU", "TH"],
        time_windows: [{ start: "07:30", end: "11:00" }],
        latest_date: "2028-06-30",
        notes: "Can come early",
        priority: "normal",
      });
      expect((await call("GET", `/v2/waitlist-requests/${created.body.id}`)).body).toEqual(patched.body);

      const removed = await call("DELETE", `/v2/waitlist-requests/${created.body.id}`);
      expect(removed.body.status).toBe("cancelled");
      const again = await call("DELETE", `/v2/waitlist-requests/${created.body.id}`);
      expect(again.status).toBe(409);
      expect(again.body.error).toMatchObject({ code: "INVALID_TRANSITION", details: { current_status: "cancelled" } });
      expect((await call("GET", "/v2/waitlist-requests?status=cancelled")).body.data).toHaveLength(1);
      const noOffer = await call("POST", `/v2/waitlist-requests/${urgent.body.id}/accept-offer`);
      expect(noOffer.status).toBe(409);
      expect(noOffer.body.error.details.current_status).toBe("waiting");
    });

    it("refuses bad input with the field named and writes nothing; 404 for unknown ids and other organisations", async () => {
      const before = await count();
      const base = { patient_id: ids.patient, appointment_type_id: ids.type, payment_mode: "SELF_PAY" };
      const noMode = await call("POST", "/v2/waitlist-requests", { ...base, payment_mode: undefined });
      expect(noMode.status).toBe(400);
      expect(JSON.stringify(noMode.body.error)).toContain("payment_mode");
      const window = await call("POST", "/v2/waitlist-requests", {
        ...base,
        time_windows: [{ start: "11:00", end: "09:00" }],
        earliest_date: "2028-05-01",
        latest_date: "2028-04-01",
      });
      expect(window.status).toBe(400);
      expect(window.body.error.details.errors.map((e: { field: string }) => e.field)).toEqual([
        "time_windows.0",
        "latest_date",
      ]);
      const badDay = await call("POST", "/v2/waitlist-requests", { ...base, preferred_days: ["XX"] });
      expect(badDay.status).toBe(400);
      const unknown = await call("POST", "/v2/waitlist-requests", {
        ...base,
        provider_ids: ["999999"],
        clinic_ids: ["888888"],
      });
      expect(unknown.status).toBe(400);
      expect(unknown.body.error.code).toBe("UNKNOWN_REFERENCE");
      expect(unknown.body.error.details.errors.map((e: { field: string }) => e.field)).toEqual([
        "provider_ids",
        "clinic_ids",
      ]);
      expect(await count()).toBe(before);
      expect((await call("GET", "/v2/waitlist-requests/999999")).status).toBe(404);
      expect((await call("GET", "/v2/waitlist-requests?status=open")).status).toBe(400);
      const mine = (await call("POST", "/v2/waitlist-requests", base)).body.id;
      const foreign = await rt.token({ organisationId: 2 });
      expect((await call("GET", `/v2/waitlist-requests/${mine}`, undefined, foreign)).status).toBe(404);
      expect((await call("DELETE", `/v2/waitlist-requests/${mine}`, undefined, foreign)).status).toBe(404);
      const readOnly = await rt.token({ scope: "waitlist:read" });
      expect((await call("GET", `/v2/waitlist-requests/${mine}`, undefined, readOnly)).status).toBe(200);
      expect((await call("DELETE", `/v2/waitlist-requests/${mine}`, undefined, readOnly)).status).toBe(403);
    });
  });
}
