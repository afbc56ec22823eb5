import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines } from "../support/engines.js";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";

// v2 coverages (spec 4.7, issue 20 point 1): v1's insurance cards and v2's coverages are two views of one record,
// on every engine this run has.
for (const engine of availableEngines()) {
  describe(`[${engine}] v2 coverages`, () => {
    let rt: TestRuntime;
    const ids = { patient: "", payer: "", otherPayer: "" };
    const json = async (res: Response) => ({ status: res.status, body: res.status === 204 ? null : await res.json() });
    const call = (method: string, path: string, body?: unknown, token?: string) =>
      rt.call(method, path, { ...(body === undefined ? {} : { body }), ...(token ? { token } : {}) }).then(json);
    const coverages = () => `/v2/patients/${ids.patient}/coverages`;
    const events = async (type: string) =>
      (await rt.rawRows("select data from outbox where event_type = ? order by id", type)).map((r) =>
        JSON.parse(String(r.data)),
      );

    beforeAll(async () => {
      rt = await startTestRuntime({ OPENPRACTICE_PLAN_LIMITS: '{"free":100000}' }, { engine });
      const admin = await rt.token({ scope: "admin read write" });
      ids.payer = (
        await call("POST", "/v2/payers", { payer_id: "60054", name: "Aetna", type: "commercial" }, admin)
      ).body.id;
      ids.otherPayer = (
        await call("POST", "/v2/payers", { payer_id: "87726", name: "UnitedHealthcare", type: "commercial" }, admin)
      ).body.id;
      ids.patient = (
        await call("POST", "/v2/patients", { first_name: "Cora", last_name: "Vega", date_of_birth: "1990-06-01" })
      ).body.id;
      await rt.runtime.practice.storage.repositories.catalog.enableSpecialization(1, "MSK");
    });
    afterAll(() => rt.stop());

    it("creates, reads, lists and changes coverages; v1 reads them as insurance cards and its cards read on v2", async () => {
      const primary = await call("POST", coverages(), {
        payer_ref: ids.payer,
        member_id: "W123456789",
        group_number: "0123456-010",
        plan_name: "Open Access Managed Choice",
        plan_start_date: "2027-01-01",
        priority: "primary",
      });
      expect(primary.status).toBe(201);
      expect(primary.body).toEqual({
        id: expect.stringMatching(/^[1-9][0-9]*$/),
        patient_id: ids.patient,
        payer: { id: ids.payer, payer_id: "60054", name: "Aetna" },
        member_id: "W123456789",
        group_number: "0123456-010",
        plan_name: "Open Access Managed Choice",
        subscriber: { relationship: "self", first_name: null, last_name: null, date_of_birth: null },
        plan_start_date: "2027-01-01",
        plan_end_date: null,
        priority: "primary",
        active: true,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      const secondary = await call("POST", coverages(), {
        payer_ref: ids.otherPayer,
        member_id: "U-55",
        priority: "secondary",
        subscriber: { relationship: "spouse", first_name: "Jordan", last_name: "Vega", date_of_birth: "1988-03-02" },
      });
      expect(secondary.status).toBe(201);
      expect(secondary.body.subscriber).toEqual({
        relationship: "spouse",
        first_name: "Jordan",
        last_name: "Vega",
        date_of_birth: "1988-03-02",
      });

      const v1 = await call("GET", `/apis/v1/patient/${ids.patient}/insurance-cards`);
      expect(v1.body.data.map((c: { insurance_card_id: number }) => String(c.insurance_card_id))).toEqual([
        primary.body.id,
        secondary.body.id,
      ]);
      expect(v1.body.data[0]).toMatchObject({
        insurance_number: "W123456789",
        insurance_payer: { payer_reg_id: Number(ids.payer), name: "Aetna", payer_id: "60054" },
        plan_start_date: "2027-01-01",
      });
      const card = await call("POST", `/apis/v1/patient/${ids.patient}/insurance-cards`, {
        insurance_payer: { name: "Local Union Plan" },
        insurance_number: "LU-9",
      });
      const fromV1 = await call("GET", `${coverages()}/${card.body.data.insurance_card_id}`);
      expect(fromV1.body).toMatchObject({
        payer: { id: null, payer_id: null, name: "Local Union Plan" },
        member_id: "LU-9",
        priority: null,
        active: true,
      });
      expect((await call("GET", coverages())).body.data).toHaveLength(3);

      const patched = await call("PATCH", `${coverages()}/${secondary.body.id}`, {
        plan_end_date: "2027-12-31",
        active: false,
        subscriber: null,
      });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({
        plan_end_date: "2027-12-31",
        active: false,
        member_id: "U-55",
        subscriber: { relationship: "self", first_name: null },
      });
      expect((await call("GET", `${coverages()}/${secondary.body.id}`)).body).toEqual(patched.body);
      // A v1 card keeps its payer outside the registry when a change does not name one.
      const ranked = await call("PATCH", `${coverages()}/${fromV1.body.id}`, { priority: "tertiary" });
      expect(ranked.body).toMatchObject({ priority: "tertiary", payer: { name: "Local Union Plan" } });
      const created = (await events("coverage.created")).map((e) => String(e.coverage_id));
      expect(created).toEqual([primary.body.id, secondary.body.id, fromV1.body.id]);
      expect((await events("coverage.updated")).map((e) => String(e.coverage_id))).toEqual([
        secondary.body.id,
        fromV1.body.id,
      ]);
    });

    it("refuses a delete while an open case uses the coverage, allows it once the case is discharged", async () => {
      const coverage = await call("POST", coverages(), {
        payer_ref: ids.payer,
        member_id: "DEL-1",
        priority: "primary",
      });
      const opened = await call("POST", "/apis/soap-enrichment/v1/patientCase", {
        patient_id: Number(ids.patient),
        case_title: "Right shoulder",
        specialization: "MSK",
        insurance_card_list: [{ insurance_card_id: Number(coverage.body.id), insurance_card_type: "PRIMARY" }],
      });
      expect(opened.body.code).toBe(2000);
      const caseId = opened.body.data.service_case_id as string;
      const refused = await call("DELETE", `${coverages()}/${coverage.body.id}`);
      expect(refused.status).toBe(409);
      expect(refused.body.error).toMatchObject({ code: "COVERAGE_IN_USE", details: { service_case_ids: [caseId] } });
      expect((await call("GET", `${coverages()}/${coverage.body.id}`)).status).toBe(200);

      const discharged = await call(
        "POST",
        `/apis/soap-enrichment/v1/patientCase/${caseId.replace("SERVICE_CASE_", "")}`,
        {
          treatment_status: "DISCHARGED",
        },
      );
      expect(discharged.body.code).toBe(2000);
      expect((await call("DELETE", `${coverages()}/${coverage.body.id}`)).status).toBe(204);
      expect((await call("GET", `${coverages()}/${coverage.body.id}`)).status).toBe(404);
      expect((await call("DELETE", `${coverages()}/${coverage.body.id}`)).status).toBe(404);
      const v1 = await call("GET", `/apis/v1/patient/${ids.patient}/insurance-cards`);
      expect(v1.body.data.map((c: { insurance_card_id: number }) => String(c.insurance_card_id))).not.toContain(
        coverage.body.id,
      );
      expect((await events("coverage.deleted")).map((e) => String(e.coverage_id))).toEqual([coverage.body.id]);
    });

    it("refuses bad input naming the field, writing nothing; 404 for another organisation", async () => {
      const before = Number(await rt.scalar("select count(*) from insurance_cards"));
      const noMember = await call("POST", coverages(), { payer_ref: ids.payer, priority: "primary" });
      expect(noMember.status).toBe(400);
      expect(JSON.stringify(noMember.body.error)).toContain("member_id");
      const spouse = await call("POST", coverages(), {
        payer_ref: ids.payer,
        member_id: "X",
        priority: "primary",
        subscriber: { relationship: "spouse" },
        plan_start_date: "2027-05-01",
        plan_end_date: "2027-01-01",
      });
      expect(spouse.status).toBe(400);
      expect(spouse.body.error.details.errors.map((e: { field: string }) => e.field)).toEqual([
        "plan_end_date",
        "subscriber.first_name",
        "subscriber.last_name",
        "subscriber.date_of_birth",
      ]);
      const unknown = await call("POST", coverages(), { payer_ref: "999999", member_id: "X", priority: "primary" });
      expect(unknown.status).toBe(400);
      expect(unknown.body.error).toMatchObject({ code: "UNKNOWN_REFERENCE" });
      expect(unknown.body.error.details.errors[0].field).toBe("payer_ref");
      // Past the largest stored id, as a string or a number: named, not an out-of-range 500 from PostgreSQL.
      for (const beyond of ["2147483648", 2147483648, "999999999999999", 9007199254740991]) {
        const tooLarge = await call("POST", coverages(), { payer_ref: beyond, member_id: "X", priority: "primary" });
        expect(tooLarge.status, String(beyond)).toBe(400);
        expect(tooLarge.body.error.details.errors[0].field).toBe("payer_ref");
      }
      const largest = await call("POST", coverages(), { payer_ref: "2147483647", member_id: "X", priority: "primary" });
      expect(largest.body.error).toMatchObject({ code: "UNKNOWN_REFERENCE" });
      expect(
        (
          await call("POST", "/v2/patients/999999/coverages", {
            payer_ref: ids.payer,
            member_id: "X",
            priority: "primary",
          })
        ).status,
      ).toBe(404);
      expect(Number(await rt.scalar("select count(*) from insurance_cards"))).toBe(before);
      const foreign = await rt.token({ organisationId: 2 });
      expect((await call("GET", coverages(), undefined, foreign)).status).toBe(404);
      const readOnly = await rt.token({ scope: "coverages:read" });
      expect((await call("GET", coverages(), undefined, readOnly)).status).toBe(200);
      expect(
        (await call("POST", coverages(), { payer_ref: ids.payer, member_id: "X", priority: "primary" }, readOnly))
          .status,
      ).toBe(403);
    });
  });
}
