import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines } from "../support/engines.js";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";

const DAY = Math.floor(Date.parse("2031-10-01T00:00:00Z") / 1000);
const HOUR = 3600;
const BASE = "/apis/soap-enrichment/v1";

// Every place that takes a case id accepts the id (as a number where the contract allows, and as a string) and
// the SERVICE_CASE_<id> form the API shows, and refuses anything else naming the field.
for (const engine of availableEngines()) {
  describe(`[${engine}] case ids: 12, "12" and "SERVICE_CASE_12" everywhere a case id is taken`, () => {
    let rt: TestRuntime;
    const ids = { clinic: 0, category: 0, patient: 0, caseId: 0, serviceCaseId: "" };
    const post = async (path: string, body?: unknown) => {
      const res = await rt.call("POST", path, body === undefined ? {} : { body });
      return { status: res.status, body: await res.json() };
    };
    const get = async (path: string) => {
      const res = await rt.call("GET", path);
      return { status: res.status, body: await res.json() };
    };
    /** The three forms of the case id: a number, its digits as a string, and SERVICE_CASE_<id>. */
    const forms = () => [ids.caseId, String(ids.caseId), ids.serviceCaseId] as const;
    let slot = 0;
    const booking = (caseRef: unknown) => {
      slot += 1;
      return {
        doctor_id: 101,
        patient_id: ids.patient,
        clinic_id: ids.clinic,
        appointment_category: [ids.category],
        timestamp: DAY + slot * HOUR,
        end_timestamp: DAY + slot * HOUR + 1800,
        payment_mode: "SELF_PAY",
        service_case_id: caseRef,
      };
    };

    beforeAll(async () => {
      rt = await startTestRuntime({ OPENPRACTICE_PLAN_LIMITS: '{"free":100000}' }, { engine });
      const r = rt.runtime.practice.storage.repositories;
      const now = new Date();
      await r.organisations.ensure({ id: 1, name: "Org one", plan: "free", now });
      ids.clinic = (await r.organisations.ensureClinic({ organisationId: 1, name: "Main", timeZone: "UTC" })).id;
      await r.organisations.upsertProvider({
        organisationId: 1,
        userId: 101,
        firstName: "Dana",
        lastName: "Reyes",
        npi: null,
        supervisingUserId: null,
        clinicIds: [ids.clinic],
      });
      ids.category = (
        await r.catalog.ensureAppointmentCategory({
          organisationId: 1,
          name: "Visit",
          type: "IN_PERSON",
          durationMinutes: 30,
        })
      ).id;
      await r.catalog.enableSpecialization(1, "MSK");
      ids.patient = (
        await post("/apis/v1/patient", { first_name: "Case", last_name: "Forms", date_of_birth: "1970-07-07" })
      ).body.data.patient_id;
      const c = await post(`${BASE}/patientCase`, {
        patient_id: ids.patient,
        case_title: "Knee",
        specialization: "MSK",
      });
      ids.serviceCaseId = c.body.data.service_case_id;
      ids.caseId = Number(ids.serviceCaseId.replace("SERVICE_CASE_", ""));
    });
    afterAll(async () => {
      await rt.stop();
    });

    it("appointments: books on the case in each form and refuses other shapes naming service_case_id", async () => {
      for (const caseRef of forms()) {
        const res = await post("/apis/v1/appointment", booking(caseRef));
        expect(res.body, JSON.stringify(caseRef)).toMatchObject({
          code: 2000,
          data: { service_case_id: ids.serviceCaseId },
        });
      }
      for (const bad of ["CASE_1", "0", "SERVICE_CASE_", "SERVICE_CASE_0", "1.5", 0, 1.5, 1e16]) {
        const res = await post("/apis/v1/appointment", booking(bad));
        expect(res.status, JSON.stringify(bad)).toBe(400);
        expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(["service_case_id"]);
      }
      const refused = await post("/apis/v1/appointment", booking("CASE_1"));
      expect(refused.body.errors).toEqual([
        { field: "service_case_id", reason: "must be a case id or SERVICE_CASE_<id>", value: "CASE_1" },
      ]);
    });

    it("SOAP notes: creates on the case in each form, and lists by it in each form", async () => {
      for (const caseRef of forms()) {
        const res = await post("/apis/hep/v2/soap-context", {
          patient_id: ids.patient,
          type: "FOLLOWUP_SOAP",
          soap_without_appointment: true,
          service_case_id: caseRef,
        });
        expect(res.body, JSON.stringify(caseRef)).toMatchObject({
          code: 2000,
          data: { service_case_id: ids.serviceCaseId },
        });
      }
      const bad = await post("/apis/hep/v2/soap-context", {
        patient_id: ids.patient,
        type: "FOLLOWUP_SOAP",
        soap_without_appointment: true,
        service_case_id: "CASE_1",
      });
      expect(bad.body).toMatchObject({
        code: 4000,
        errors: [{ field: "service_case_id", reason: "must be a case id or SERVICE_CASE_<id>" }],
      });
      for (const caseRef of [String(ids.caseId), ids.serviceCaseId]) {
        const listed = await get(`/apis/v1/soap-context/search?service_case_id=${caseRef}`);
        expect(listed.body.data.notes.length, caseRef).toBeGreaterThanOrEqual(3);
        expect(
          listed.body.data.notes.every((n: { service_case_id: string }) => n.service_case_id === ids.serviceCaseId),
        ).toBe(true);
      }
      const badQuery = await get("/apis/v1/soap-context/search?service_case_id=CASE_1");
      expect(badQuery.status).toBe(400);
      expect(badQuery.body).toMatchObject({
        error_code: "INVALID_PARAMETER",
        details: { parameter: "service_case_id", reason: "must be a case id or SERVICE_CASE_<id>" },
      });
    });

    it("cases: reads and updates by the id and by SERVICE_CASE_<id>", async () => {
      for (const caseRef of [String(ids.caseId), ids.serviceCaseId]) {
        expect((await get(`${BASE}/patientCase/${caseRef}`)).body.data.service_case_id, caseRef).toBe(
          ids.serviceCaseId,
        );
        expect(
          (await post(`${BASE}/patientCase/${caseRef}`, { body_pain_notes: `via ${caseRef}` })).body.data
            .body_pain_notes,
        ).toBe(`via ${caseRef}`);
      }
      expect((await get(`${BASE}/patientCase/CASE_1`)).body.code).toBe(4043);
    });

    it("authorizations: creates on the case in each form, lists and searches by it in each form", async () => {
      const created: number[] = [];
      for (const [i, caseRef] of forms().entries()) {
        const res = await post(`${BASE}/authorization`, {
          service_case_id: caseRef,
          reference_number: `REF-${i}`,
          payer_name: "Payer",
          effective_start_date: `2031-0${i + 1}-01`,
          effective_end_date: `2031-0${i + 1}-28`,
          authorized_visits: 5,
        });
        expect(res.body, JSON.stringify(caseRef)).toMatchObject({
          code: 2000,
          data: { service_case_id: ids.serviceCaseId },
        });
        created.push(res.body.data.authorization_id);
      }
      const bad = await post(`${BASE}/authorization`, {
        service_case_id: "CASE_1",
        reference_number: "X",
        payer_name: "P",
        effective_start_date: "2031-05-01",
        effective_end_date: "2031-05-28",
        authorized_visits: 1,
      });
      expect(bad.body).toMatchObject({
        code: 4000,
        errors: [{ field: "service_case_id", reason: "must be a case id or SERVICE_CASE_<id>" }],
      });
      for (const caseRef of [String(ids.caseId), ids.serviceCaseId]) {
        const listed = (await get(`${BASE}/authorization?service_case_id=${caseRef}`)).body.data.map(
          (a: { authorization_id: number }) => a.authorization_id,
        );
        expect(listed, caseRef).toEqual(created);
        const found = (
          await get(`${BASE}/authorization/search?service_case_id=${caseRef}`)
        ).body.data.authorizations.map((a: { authorization_id: number }) => a.authorization_id);
        expect(
          [...found].sort((a, b) => a - b),
          caseRef,
        ).toEqual([...created].sort((a, b) => a - b));
      }
      for (const path of [
        `${BASE}/authorization?service_case_id=CASE_1`,
        `${BASE}/authorization/search?service_case_id=CASE_1`,
      ]) {
        const res = await get(path);
        expect(res.status, path).toBe(400);
        expect(res.body.details).toMatchObject({
          parameter: "service_case_id",
          reason: "must be a case id or SERVICE_CASE_<id>",
        });
      }
    });
  });
}
