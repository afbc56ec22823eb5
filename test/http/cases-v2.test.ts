import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines } from "../support/engines.js";
import { bookV1Visit } from "../support/v1-visit.js";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";

const V1 = "/apis/soap-enrichment/v1";
/** An ICD-10-CM order-file line (CMS fixed columns). */
const icdLine = (n: number, code: string, text: string) =>
  `${String(n).padStart(5, "0")} ${code.padEnd(7)} 1 ${text.padEnd(60).slice(0, 60)} ${text}`;

// v2 cases and authorizations (spec 4.7, issue 20 point 3): one case and one authorization, two views; the case's
// coverage pointers are its PRIMARY and SECONDARY card copies on v1. On every engine this run has.
for (const engine of availableEngines()) {
  describe(`[${engine}] v2 cases and authorizations`, () => {
    let rt: TestRuntime;
    const ids = { patient: "", other: "", payer: "", primary: "", secondary: "", othersCoverage: "", physician: "" };
    const json = async (res: Response) => ({ status: res.status, body: res.status === 204 ? null : await res.json() });
    const call = (method: string, path: string, body?: unknown, token?: string) =>
      rt.call(method, path, { ...(body === undefined ? {} : { body }), ...(token ? { token } : {}) }).then(json);
    const count = async (table: string) => Number(await rt.scalar(`select count(*) from ${table}`));
    const events = async (type: string) =>
      (await rt.rawRows("select data from outbox where event_type = ? order by id", type)).map((r) =>
        JSON.parse(String(r.data)),
      );
    const fields = (r: { body: { error: { details: { errors: Array<{ field: string }> } } } }) =>
      r.body.error.details.errors.map((e) => e.field);

    beforeAll(async () => {
      rt = await startTestRuntime({ OPENPRACTICE_PLAN_LIMITS: '{"free":100000}' }, { engine });
      const practice = rt.runtime.practice;
      await practice.icd.importOrderFile(
        [
          icdLine(1, "M5450", "Low back pain, unspecified"),
          icdLine(2, "M545", "Low back pain"),
          icdLine(3, "S83511A", "Sprain of anterior cruciate ligament of right knee, initial encounter"),
        ],
        2026,
      );
      const now = new Date();
      await practice.storage.repositories.organisations.ensure({ id: 1, name: "Org one", plan: "free", now });
      await practice.storage.repositories.catalog.enableSpecialization(1, "PT");
      const admin = await rt.token({ scope: "admin read write" });
      ids.payer = (
        await call("POST", "/v2/payers", { payer_id: "60054", name: "Aetna", type: "commercial" }, admin)
      ).body.id;
      const patient = async (first_name: string) =>
        (await call("POST", "/v2/patients", { first_name, last_name: "Case", date_of_birth: "1980-02-03" })).body.id;
      ids.patient = await patient("Nora");
      ids.other = await patient("Otto");
      const coverage = async (patient: string, member_id: string, priority: string) =>
        (await call("POST", `/v2/patients/${patient}/coverages`, { payer_ref: ids.payer, member_id, priority })).body
          .id;
      ids.primary = await coverage(ids.patient, "W1", "primary");
      ids.secondary = await coverage(ids.patient, "W2", "secondary");
      ids.othersCoverage = await coverage(ids.other, "W3", "primary");
      ids.physician = (
        await call("POST", "/v2/referring-physicians", { first_name: "Ada", last_name: "Lind", npi: "1234567893" })
      ).body.id;
    });
    afterAll(async () => {
      await rt?.stop();
    });

    let caseId = "";
    it("opens a case pointing at coverages, with ICD codes from the code set; v1 reads the pointers as cards", async () => {
      const created = await call("POST", "/v2/cases", {
        patient_id: ids.patient,
        case_title: "Low back pain",
        specialization: "PT",
        icd_codes: ["M54.50", "s83511a"],
        primary_coverage_id: ids.primary,
        primary_referring_physician_id: ids.physician,
        visit_track_required: true,
        case_visit_limit: 10,
      });
      expect(created.status).toBe(201);
      caseId = created.body.id;
      expect(caseId).toMatch(/^SERVICE_CASE_\d+$/);
      expect(created.body).toMatchObject({
        patient_id: ids.patient,
        primary_coverage_id: ids.primary,
        secondary_coverage_id: null,
        primary_referring_physician_id: ids.physician,
        treatment_status: "active",
        icd_codes: [
          { code: "M54.50", description: "Low back pain, unspecified" },
          { code: "S83.511A", description: "Sprain of anterior cruciate ligament of right knee, initial encounter" },
        ],
        visits_used: 0,
        auth_required_status: "auth_required",
      });
      const v1 = (await call("GET", `${V1}/patientCase/${caseId}`)).body.data;
      expect(
        v1.insurance_card_list.map((c: { insurance_card_id: number; insurance_card_type: string }) => [
          c.insurance_card_id,
          c.insurance_card_type,
        ]),
      ).toEqual([[Number(ids.primary), "PRIMARY"]]);
      expect(v1.icd_codes.map((c: { code: string }) => c.code)).toEqual(["M54.50", "S83.511A"]);
      const numeric = caseId.replace("SERVICE_CASE_", "");
      expect((await call("GET", `/v2/cases/${numeric}`)).body.id).toBe(caseId);
      expect((await events("case.created")).map((e) => e.service_case_id)).toContain(caseId);
    });

    it("points and unpoints coverages by PATCH; refuses another patient's, the same twice, unknown codes", async () => {
      const both = await call("PATCH", `/v2/cases/${caseId}`, { secondary_coverage_id: ids.secondary });
      expect(both.status).toBe(200);
      expect(both.body).toMatchObject({ primary_coverage_id: ids.primary, secondary_coverage_id: ids.secondary });
      const before = await count("outbox");
      const foreign = await call("PATCH", `/v2/cases/${caseId}`, { secondary_coverage_id: ids.othersCoverage });
      expect(foreign.status).toBe(400);
      expect(foreign.body.error.code).toBe("UNKNOWN_REFERENCE");
      expect(fields(foreign)).toEqual(["secondary_coverage_id"]);
      const twice = await call("PATCH", `/v2/cases/${caseId}`, { secondary_coverage_id: ids.primary });
      expect(fields(twice)).toEqual(["secondary_coverage_id"]);
      const unknown = await call("PATCH", `/v2/cases/${caseId}`, { icd_codes: ["M54.50", "Z99.99"] });
      expect(unknown.status).toBe(400);
      expect(unknown.body.error.details.errors).toEqual([
        { field: "icd_codes.1", reason: "is not a code of the ICD-10-CM 2026 code set", value: "Z99.99" },
      ]);
      const inline = await call("PATCH", `/v2/cases/${caseId}`, {
        primary_referring_physician_id: { first_name: "X" },
      });
      expect(inline.status).toBe(400);
      expect(fields(inline)[0]).toBe("primary_referring_physician_id");
      expect(await count("outbox")).toBe(before);
      const still = (await call("GET", `/v2/cases/${caseId}`)).body;
      expect(still).toMatchObject({ primary_coverage_id: ids.primary, secondary_coverage_id: ids.secondary });
      expect(still.icd_codes).toHaveLength(2);
      const off = await call("PATCH", `/v2/cases/${caseId}`, { secondary_coverage_id: null });
      expect(off.body.secondary_coverage_id).toBeNull();
      expect((await call("PATCH", `/v2/cases/${caseId}`, { secondary_coverage_id: ids.secondary })).status).toBe(200);
    });

    it("refuses to delete a coverage the open case points to, and allows it once discharged", async () => {
      const refused = await call("DELETE", `/v2/patients/${ids.patient}/coverages/${ids.secondary}`);
      expect(refused.status).toBe(409);
      expect(refused.body.error).toMatchObject({ code: "COVERAGE_IN_USE", details: { service_case_ids: [caseId] } });
    });

    let authId = "";
    it("grants an authorization under a coverage (payer from it); v1 reads it, and a v1 one reads on v2", async () => {
      const base = `/v2/cases/${caseId}/coverages/${ids.primary}/authorizations`;
      const created = await call("POST", base, {
        reference_number: "AUTH-1",
        effective_start_date: "2026-01-01",
        effective_end_date: "2099-12-31",
        authorized_visits: 8,
        icd_codes: ["M54.50"],
        cpt_codes: [{ code: "97110", authorized_units: 16 }],
      });
      expect(created.status).toBe(201);
      authId = created.body.id;
      expect(created.body).toMatchObject({
        service_case_id: caseId,
        coverage_id: ids.primary,
        payer: { name: "Aetna", payer_id: "60054" },
        visits_remaining: 8,
        status: "active",
        icd_codes: [{ code: "M54.50", description: "Low back pain, unspecified" }],
      });
      const v1 = (await call("GET", `${V1}/authorization/${authId}`)).body.data;
      expect(v1).toMatchObject({ reference_number: "AUTH-1", payer_name: "Aetna", authorized_visits: 8 });
      const fromV1 = (
        await call("POST", `${V1}/authorization`, {
          service_case_id: caseId,
          reference_number: "V1-AUTH",
          payer_name: "Aetna",
          effective_start_date: "2026-01-01",
          effective_end_date: "2099-12-31",
          authorized_visits: 4,
        })
      ).body.data;
      const all = (await call("GET", `/v2/cases/${caseId}/authorizations`)).body.data;
      expect(all.map((a: { id: string; coverage_id: string | null }) => [a.id, a.coverage_id])).toEqual([
        [authId, ids.primary],
        [String(fromV1.authorization_id), null],
      ]);
      expect((await call("GET", base)).body.data.map((a: { id: string }) => a.id)).toEqual([authId]);
      expect((await call("GET", `${base}/${fromV1.authorization_id}`)).body.reference_number).toBe("V1-AUTH");
      // A v2 change under the coverage records it on the v1 authorization.
      const adopted = await call("PATCH", `${base}/${fromV1.authorization_id}`, { authorized_visits: 5 });
      expect(adopted.body).toMatchObject({ coverage_id: ids.primary, authorized_visits: 5 });
      expect(
        (await call("GET", `/v2/cases/${caseId}/coverages/${ids.secondary}/authorizations/${authId}`)).status,
      ).toBe(404);
      const deleted = await call("DELETE", `${base}/${fromV1.authorization_id}`);
      expect(deleted.status).toBe(204);
      expect((await call("GET", `${V1}/authorization/${fromV1.authorization_id}`)).status).toBe(404);
      const types = ["authorization.created", "authorization.updated", "authorization.deleted"];
      const raised = await Promise.all(types.map(events));
      expect(raised.map((list) => list.length)).toEqual([2, 1, 1]);
      expect(raised[0]![0]).toEqual({
        organisation_id: 1,
        service_case_id: caseId,
        patient_id: Number(ids.patient),
        authorization_id: Number(authId),
      });
    });

    it("counts a visit booked on v1 against the v2 authorization and the case", async () => {
      const booked = await bookV1Visit(rt, Number(ids.patient), caseId);
      expect(booked.status, JSON.stringify(booked.body)).toBe(200);
      const auth = (await call("GET", `/v2/cases/${caseId}/coverages/${ids.primary}/authorizations/${authId}`)).body;
      expect(auth).toMatchObject({ visits_booked: 1, visits_remaining: 7 });
      expect((await call("GET", `/v2/cases/${caseId}`)).body).toMatchObject({ visits_booked: 1 });
    });

    it("answers 404 across organisations and 403 without the scope", async () => {
      const foreign = await rt.token({ organisationId: 2 });
      expect((await call("GET", `/v2/cases/${caseId}`, undefined, foreign)).status).toBe(404);
      expect((await call("GET", `/v2/cases/${caseId}/authorizations`, undefined, foreign)).status).toBe(404);
      const readOnly = await rt.token({ scope: "cases:read" });
      expect((await call("GET", `/v2/cases/${caseId}`, undefined, readOnly)).status).toBe(200);
      expect((await call("PATCH", `/v2/cases/${caseId}`, { case_title: "X" }, readOnly)).status).toBe(403);
      expect((await call("GET", "/v2/cases/SERVICE_CASE_99999")).status).toBe(404);
      const discharged = await call("PATCH", `/v2/cases/${caseId}`, { treatment_status: "discharged" });
      expect(discharged.body.treatment_status).toBe("discharged");
      expect((await events("case.discharged")).map((e) => e.service_case_id)).toEqual([caseId]);
      expect((await call("DELETE", `/v2/patients/${ids.patient}/coverages/${ids.secondary}`)).status).toBe(204);
    });
  });
}
