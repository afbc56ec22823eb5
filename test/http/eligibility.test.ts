import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ClearinghouseSimulator } from "../support/clearinghouse-simulator.js";
import { availableEngines } from "../support/engines.js";
import { bookV1Visit } from "../support/v1-visit.js";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";

const icdLine = (n: number, code: string, text: string) =>
  `${String(n).padStart(5, "0")} ${code.padEnd(7)} 1 ${text.padEnd(60).slice(0, 60)} ${text}`;

// Real-time eligibility (issue 20 point 2) against a local HTTPS clearinghouse that parses each 270 and answers
// real-format 271 fixtures; the walk (coverages, a v2 case, a check, a v2 authorization counted by a v1
// booking, a refused delete) on every engine this run has.
for (const engine of availableEngines()) {
  describe(`[${engine}] eligibility`, () => {
    const clearinghouse = new ClearinghouseSimulator();
    let rt: TestRuntime;
    const ids = { patient: "", payer: "", primary: "", secondary: "", caseId: "" };
    const json = async (res: Response) => ({ status: res.status, body: res.status === 204 ? null : await res.json() });
    const call = (method: string, path: string, body?: unknown, token?: string) =>
      rt.call(method, path, { ...(body === undefined ? {} : { body }), ...(token ? { token } : {}) }).then(json);
    const coverage = async (member_id: string, priority: string, extra: Record<string, unknown> = {}) =>
      (
        await call("POST", `/v2/patients/${ids.patient}/coverages`, {
          payer_ref: ids.payer,
          member_id,
          priority,
          ...extra,
        })
      ).body.id as string;
    const check = (coverageId: string, body?: unknown) =>
      call("POST", `/v2/patients/${ids.patient}/coverages/${coverageId}/eligibility-checks`, body);
    const history = async (coverageId: string) =>
      (await call("GET", `/apis/v1/patient/${ids.patient}/insurance-cards/${coverageId}/eligibility-checks`)).body.data;

    beforeAll(async () => {
      await clearinghouse.start();
      clearinghouse.slowMs = 2_500;
      const settings = {
        1: {
          url: clearinghouse.url,
          username: "openpractice",
          password: "s3cret",
          submitter_id: "OPENPRACTICE",
          receiver_id: "CLEARHOUSE",
          provider_npi: "1234567893",
          provider_name: "Lakeview Physical Therapy",
          timeout_ms: 1_000,
          ca_file: clearinghouse.caFile,
          usage: "T",
        },
      };
      rt = await startTestRuntime(
        {
          OPENPRACTICE_PLAN_LIMITS: '{"free":100000}',
          OPENPRACTICE_ELIGIBILITY_CLEARINGHOUSES: JSON.stringify(settings),
        },
        { engine },
      );
      const practice = rt.runtime.practice;
      await practice.icd.importOrderFile([icdLine(1, "M5450", "Low back pain, unspecified")], 2026);
      const r = practice.storage.repositories;
      await r.organisations.ensure({ id: 1, name: "Org one", plan: "free", now: new Date() });
      await r.catalog.enableSpecialization(1, "PT");
      const admin = await rt.token({ scope: "admin read write" });
      ids.payer = (
        await call("POST", "/v2/payers", { payer_id: "60054", name: "Aetna", type: "commercial" }, admin)
      ).body.id;
      ids.patient = (
        await call("POST", "/v2/patients", { first_name: "Nora", last_name: "Quist", date_of_birth: "1980-02-03" })
      ).body.id;
    });
    afterAll(async () => {
      await rt?.stop();
      await clearinghouse.stop();
    });

    it("walks the issue: two coverages, a v2 case, a check with PT limits and a copay, an authorization counted by a v1 visit, a refused delete", async () => {
      ids.primary = await coverage("ACTIVE-PT", "primary", { group_number: "G-100" });
      ids.secondary = await coverage("DEDUCTIBLE-MET", "secondary");
      const opened = await call("POST", "/v2/cases", {
        patient_id: ids.patient,
        case_title: "Low back pain",
        specialization: "PT",
        icd_codes: ["M54.50"],
        primary_coverage_id: ids.primary,
        secondary_coverage_id: ids.secondary,
        case_visit_limit: 20,
      });
      expect(opened.status).toBe(201);
      ids.caseId = opened.body.id;
      expect(opened.body.warnings).toEqual([]);

      const checked = await check(ids.primary, { service_date: "2026-11-20" });
      expect(checked.status, JSON.stringify(checked.body)).toBe(201);
      expect(checked.body).toMatchObject({
        patient_id: ids.patient,
        coverage_id: ids.primary,
        source: "realtime",
        status: "active",
        service_date: "2026-11-20",
        rejections: [],
        error_code: null,
      });
      expect(checked.body.result).toEqual({
        active: true,
        plan_start_date: "2026-01-01",
        plan_end_date: "2026-12-31",
        benefits: {
          "30": {
            copay: null,
            coinsurance_percent: null,
            deductible: { total: 1500, remaining: 500 },
            out_of_pocket: { total: 5000, remaining: 3200 },
            visits: { limit: null, used: null, remaining: null },
            prior_authorization_required: null,
          },
          PT: {
            copay: 25,
            coinsurance_percent: 20,
            deductible: { total: null, remaining: null },
            out_of_pocket: { total: null, remaining: null },
            visits: { limit: 20, used: 8, remaining: 12 },
            prior_authorization_required: false,
          },
          AD: {
            copay: null,
            coinsurance_percent: null,
            deductible: { total: null, remaining: null },
            out_of_pocket: { total: null, remaining: null },
            visits: { limit: null, used: null, remaining: null },
            prior_authorization_required: null,
          },
          "33": {
            copay: 35,
            coinsurance_percent: null,
            deductible: { total: null, remaining: null },
            out_of_pocket: { total: null, remaining: null },
            visits: { limit: 12, used: null, remaining: null },
            prior_authorization_required: true,
          },
        },
      });
      // What the clearinghouse received: a 270 it could parse, for this member, with our credentials.
      const sent = clearinghouse.received.at(-1)!;
      expect(sent).toMatchObject({
        authorization: `Basic ${Buffer.from("openpractice:s3cret").toString("base64")}`,
        contentType: "application/edi-x12",
        memberId: "ACTIVE-PT",
        subscriber: { last: "QUIST", first: "NORA" },
        dependent: null,
        payerId: "60054",
        providerNpi: "1234567893",
        serviceTypes: ["30", "PT", "AD", "33"],
        serviceDate: "20261120",
      });
      expect(sent.raw).toContain("REF*6P*G-100~");

      // The result shows on the case: chiropractic needs prior authorization; 12 PT visits left for 20 planned.
      const withWarnings = (await call("GET", `/v2/cases/${ids.caseId}`)).body.warnings;
      expect(withWarnings.map((w: { code: string; coverage_id: string }) => [w.code, w.coverage_id])).toEqual([
        ["PRIOR_AUTHORIZATION_REQUIRED", ids.primary],
        ["VISITS_REMAINING_BELOW_PLAN", ids.primary],
      ]);
      expect(withWarnings[1].message).toBe("12 visits remain for service type PT; the case plans 20 more");

      const auth = await call("POST", `/v2/cases/${ids.caseId}/coverages/${ids.primary}/authorizations`, {
        reference_number: "AUTH-77",
        effective_start_date: "2026-01-01",
        effective_end_date: "2099-12-31",
        authorized_visits: 12,
      });
      expect(auth.status).toBe(201);
      const visit = await bookV1Visit(rt, Number(ids.patient), ids.caseId);
      expect(visit.status, JSON.stringify(visit.body)).toBe(200);
      const counted = await call(
        "GET",
        `/v2/cases/${ids.caseId}/coverages/${ids.primary}/authorizations/${auth.body.id}`,
      );
      expect(counted.body).toMatchObject({ visits_booked: 1, visits_remaining: 11 });

      const refused = await call("DELETE", `/v2/patients/${ids.patient}/coverages/${ids.primary}`);
      expect(refused.status).toBe(409);
      expect(refused.body.error).toMatchObject({
        code: "COVERAGE_IN_USE",
        details: { service_case_ids: [ids.caseId] },
      });
    });

    it("names the environment's clearinghouse as where the organisation's checks go", async () => {
      const admin = await rt.token({ scope: "admin" });
      const shown = await call("GET", "/v2/organisation/clearinghouse", undefined, admin);
      expect(shown.body).toMatchObject({ source: "environment", password_set: false, url: null });
      const tested = await call("POST", "/v2/organisation/clearinghouse/test", undefined, admin);
      expect(tested.body).toMatchObject({ ok: true, source: "environment", answered: "rejections" });
    });

    it("reads an inactive coverage and a met deductible field by field", async () => {
      const inactive = await check(await coverage("INACTIVE", "tertiary"), { service_types: ["PT"] });
      expect(inactive.status).toBe(201);
      expect(inactive.body.status).toBe("inactive");
      expect(inactive.body.result).toEqual({
        active: false,
        plan_start_date: "2025-01-01",
        plan_end_date: "2025-12-31",
        benefits: {
          "30": {
            copay: null,
            coinsurance_percent: null,
            deductible: { total: null, remaining: null },
            out_of_pocket: { total: null, remaining: null },
            visits: { limit: null, used: null, remaining: null },
            prior_authorization_required: null,
          },
        },
      });
      expect(clearinghouse.received.at(-1)!.serviceTypes).toEqual(["PT"]);
      const met = await check(ids.secondary);
      expect(met.body.result).toMatchObject({
        active: true,
        plan_start_date: "2026-01-01",
        plan_end_date: null,
        benefits: {
          "30": { deductible: { total: 2000, remaining: 0 }, out_of_pocket: { total: 6000, remaining: 1250.5 } },
          PT: {
            deductible: { total: 2000, remaining: 0 },
            coinsurance_percent: 10,
            visits: { limit: null, used: null, remaining: 3 },
            prior_authorization_required: true,
          },
        },
      });
    });

    it("turns AAA rejections into errors with their codes, keeping the documents", async () => {
      const badId = await coverage("BAD-ID", "tertiary");
      const rejected = await check(badId);
      expect(rejected.status).toBe(422);
      expect(rejected.body.error).toMatchObject({
        code: "ELIGIBILITY_REJECTED",
        details: {
          rejections: [
            { code: "72", reason: "Invalid/missing subscriber/insured ID", follow_up: "Please correct and resubmit" },
          ],
        },
      });
      const [kept] = (await history(badId)).checks;
      expect(kept).toMatchObject({
        id: Number(rejected.body.error.details.check_id),
        status: "rejected",
        result: null,
      });
      expect(kept.request_x12).toMatch(/^ISA\*00\*/);
      expect(kept.request_x12).toContain("NM1*IL*1*QUIST*NORA****MI*BAD-ID~");
      expect(kept.response_x12).toContain("AAA*N**72*C~");
      const down = await check(await coverage("PAYER-DOWN", "tertiary"));
      expect(down.status).toBe(422);
      expect(down.body.error.details.rejections).toEqual([
        {
          code: "42",
          reason: "Unable to respond at current time (payer unavailable)",
          follow_up: "Please resubmit original transaction",
          loop: "2100A",
          valid_request: false,
          retryable: true,
          retry_after: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        },
      ]);
    });

    it("reads visit limits and rejections as payers send them: HSD and EB09 quantities, AAA in any loop with Y or N", async () => {
      // HSD*VS*30***22 (the limit), EB09 99 (used) and EB06 29 VS (remaining), as payers mix them.
      const visits = await check(await coverage("VISITS-HSD", "tertiary"), { service_types: ["PT", "AD", "33"] });
      expect(visits.status).toBe(201);
      expect(visits.body.result.benefits.PT.visits).toEqual({ limit: 30, used: 22, remaining: 8 });
      expect(visits.body.result.benefits.AD.visits).toEqual({ limit: 20, used: 5, remaining: 15 });
      expect(visits.body.result.benefits["33"].visits).toEqual({ limit: 12, used: 8, remaining: 4 });

      // AAA*Y**42*R in 2100A: the payer cannot answer now; the check may be sent again at once.
      const before = Date.now();
      const busy = await check(await coverage("PAYER-BUSY", "tertiary"));
      expect(busy.status).toBe(422);
      const [rejection] = busy.body.error.details.rejections;
      expect(rejection).toMatchObject({
        code: "42",
        reason: "Unable to respond at current time (payer unavailable)",
        follow_up: "Resubmission allowed",
        loop: "2100A",
        retryable: true,
      });
      expect(Date.parse(rejection.retry_after)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(rejection.retry_after)).toBeLessThanOrEqual(Date.now() + 1000);

      // AAA*Y**53*W in 2110C beside benefits: the answer stands, the rejection is kept with it (retry in 30 days).
      const benefitId = await coverage("BENEFIT-AAA", "tertiary");
      const partial = await check(benefitId);
      expect(partial.status).toBe(201);
      expect(partial.body.status).toBe("active");
      expect(partial.body.result.benefits.PT.copay).toBe(20);
      const [kept] = (await history(benefitId)).checks;
      expect(kept.rejections).toEqual([
        {
          code: "53",
          reason: "Inquired benefit inconsistent with provider type",
          follow_up: "Please wait 30 days and resubmit",
          loop: "2110C",
          valid_request: true,
          retryable: true,
          retry_after: expect.any(String),
        },
      ]);
      // v1 times are UTC without a zone (spec 4.1).
      const waited = Date.parse(`${kept.rejections[0].retry_after}Z`) - Date.parse(`${kept.checked_at}Z`);
      expect(Math.abs(waited - 30 * 86_400_000)).toBeLessThan(1000);
    });

    it("answers 504 past the timeout, 502 for a malformed answer or an HTTP error; each check kept as failed", async () => {
      for (const [member, status, code] of [
        ["SLOW", 504, "ELIGIBILITY_TIMEOUT"],
        ["MALFORMED", 502, "ELIGIBILITY_INVALID_RESPONSE"],
        ["HTTP-500", 502, "ELIGIBILITY_UNAVAILABLE"],
      ] as const) {
        const id = await coverage(member, "tertiary");
        const started = Date.now();
        const failed = await check(id);
        expect(failed.status, member).toBe(status);
        expect(failed.body.error.code).toBe(code);
        if (member === "SLOW") expect(Date.now() - started).toBeLessThan(2_400);
        const [kept] = (await history(id)).checks;
        expect(kept).toMatchObject({
          status: "failed",
          error_code: code,
          id: Number(failed.body.error.details.check_id),
        });
        expect(kept.request_x12).toContain(`*MI*${member}~`);
      }
    });

    it("sends the dependent as the patient when another person holds the policy", async () => {
      const id = await coverage("ACTIVE-PT", "tertiary", {
        subscriber: { relationship: "spouse", first_name: "Per", last_name: "Quist", date_of_birth: "1978-05-06" },
      });
      expect((await check(id)).status).toBe(201);
      expect(clearinghouse.received.at(-1)).toMatchObject({
        subscriber: { last: "QUIST", first: "PER" },
        dependent: { last: "QUIST", first: "NORA" },
      });
      expect(clearinghouse.received.at(-1)!.raw).toContain("HL*4*3*23*0~NM1*03*1*QUIST*NORA~DMG*D8*19800203~");
    });

    it("records a result taken by phone on v1 and lists a coverage's history newest first", async () => {
      const path = `/apis/v1/patient/${ids.patient}/insurance-cards/${ids.secondary}/eligibility-checks`;
      const recorded = await call("POST", path, {
        service_date: "2026-11-21",
        active: true,
        plan_start_date: "2026-01-01",
        benefits: {
          PT: { copay: 30, visits: { limit: 10, used: 2, remaining: 8 }, prior_authorization_required: false },
        },
        reference: "CALL-5521",
        notes: "Spoke with Dana at Aetna",
      });
      expect(recorded.status).toBe(200);
      expect(recorded.body.data).toMatchObject({
        source: "manual",
        status: "active",
        reference: "CALL-5521",
        request_x12: null,
        result: { benefits: { PT: { copay: 30, visits: { limit: 10, used: 2, remaining: 8 } } } },
      });
      const listed = await history(ids.secondary);
      expect(listed.checks.map((c: { source: string }) => c.source)).toEqual(["manual", "realtime"]);
      expect(listed.pagination).toMatchObject({ total_count: 2, page: 1 });
      const before = Number(await rt.scalar("select count(*) from eligibility_checks"));
      const bad = await call("POST", path, { active: true, benefits: { PT: { copay: -1 } } });
      expect(bad.status).toBe(400);
      expect(JSON.stringify(bad.body)).toContain("benefits.PT.copay");
      const backwards = await call("POST", path, {
        active: true,
        plan_start_date: "2026-05-01",
        plan_end_date: "2026-01-01",
      });
      expect(backwards.body.errors[0].field).toBe("plan_end_date");
      expect(Number(await rt.scalar("select count(*) from eligibility_checks"))).toBe(before);
    });

    it("refuses without a clearinghouse (409), another organisation's coverage (404), without the scope (403)", async () => {
      const other = await rt.token({ organisationId: 2, scope: "admin read write" });
      const payer = (await call("POST", "/v2/payers", { payer_id: "87726", name: "UHC", type: "commercial" }, other))
        .body.id;
      const patient = (
        await call("POST", "/v2/patients", { first_name: "Ola", last_name: "Berg", date_of_birth: "1990-01-01" }, other)
      ).body.id;
      const cov = (
        await call(
          "POST",
          `/v2/patients/${patient}/coverages`,
          { payer_ref: payer, member_id: "ACTIVE-PT", priority: "primary" },
          other,
        )
      ).body.id;
      const none = await call("POST", `/v2/patients/${patient}/coverages/${cov}/eligibility-checks`, undefined, other);
      expect(none.status).toBe(409);
      expect(none.body.error.code).toBe("ELIGIBILITY_NOT_CONFIGURED");
      expect((await call("POST", `/v2/patients/${patient}/coverages/${cov}/eligibility-checks`)).status).toBe(404);
      const checkAs = async (scope: string) =>
        (
          await call(
            "POST",
            `/v2/patients/${ids.patient}/coverages/${ids.primary}/eligibility-checks`,
            undefined,
            await rt.token({ scope }),
          )
        ).status;
      expect(await checkAs("read")).toBe(403);
      expect(await checkAs("eligibility:write")).toBe(201);
      const events = await rt.rawRows("select data from outbox where event_type = ?", "coverage.eligibility_checked");
      expect(events.length).toBe(Number(await rt.scalar("select count(*) from eligibility_checks")));
    });
  });
}
