import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines } from "../support/engines.js";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";

// Issue 50, part 1: a Medicare Part B beneficiary's year over HTTP on every engine. Visits accumulate allowed
// amounts from an imported fee schedule; the visit that crosses the 2026 KX threshold ($2,480) gets KX proposed
// from the crossing line on; PT+SLP and OT stay apart; $3,000 raises the review warning and event; a commercial
// patient's visits are left alone.

const DAY = Math.floor(Date.parse("2026-12-01T15:00:00Z") / 1000); // 09:00 in Chicago
const HOUR = 3600;
const MOD = (id: number, code: string) => ({
  cpt_modifier_id: id,
  cpt_modifier_code: code,
  class_name: code,
  description: `Modifier ${code}`,
  filter: false,
});
const GP = MOD(1, "GP");
const GO = MOD(2, "GO");
const KX = MOD(4, "KX");
const CQ = MOD(5, "CQ");
const CO = MOD(6, "CO");

for (const engine of availableEngines()) {
  describe(`[${engine}] Medicare therapy thresholds over HTTP`, () => {
    let rt: TestRuntime;
    let admin = "";
    const ids = { clinic: 0, category: 0, medicare: 0, commercial: 0, caseMedicare: "", caseCommercial: "", plan: 0 };
    const codeIds: Record<string, number> = {};
    const call = async (method: string, path: string, body?: unknown, token?: string) => {
      const res = await rt.call(method, path, { ...(body === undefined ? {} : { body }), ...(token ? { token } : {}) });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    };
    const post = (path: string, body?: unknown, token?: string) => call("POST", path, body, token);
    const get = (path: string, token?: string) => call("GET", path, undefined, token);
    let slot = 0;
    const newNote = async (patient: number, caseId: string, type = "FOLLOWUP_SOAP", at?: number) => {
      slot += 1;
      const starts = at ?? DAY + slot * HOUR;
      const appt = await post("/apis/v1/appointment", {
        doctor_id: 101,
        patient_id: patient,
        clinic_id: ids.clinic,
        appointment_category: [ids.category],
        timestamp: starts,
        end_timestamp: starts + 1800,
        payment_mode: "SELF_PAY",
        service_case_id: caseId,
      });
      expect(appt.body.code).toBe(2000);
      const res = await post("/apis/hep/v2/soap-context", {
        patient_id: patient,
        type,
        appointment_id: appt.body.data.appointment_id,
      });
      expect(res.body.code).toBe(2000);
      const n = res.body.data;
      const write = async (submissionId: string, partialResponse: Record<string, unknown>) => {
        const current = (await get(`/apis/v1/form-data/${submissionId}`)).body.data.version;
        const w = await post("/apis/v1/form-data/partial", {
          submissionId,
          soapContextId: n.context_id,
          partialResponse,
          version: current + 1,
        });
        expect(w.status).toBe(200);
      };
      await write(n.subjective_submission_id, { "response.Subjective.history.chief_complaint": "Gait instability" });
      await write(n.objective_submission_id, { "response.Objective.gait.speed": "0.7 m/s" });
      return { ...n, write: (path: string, value: unknown) => write(n.plan_submission_id, { [path]: value }) };
    };
    type Line = [code: string, units: number, ...mods: Array<typeof GP>];
    const lines = (...items: Line[]) =>
      items.map(([code, units, ...mods]) => ({
        treatment_class_id: codeIds[code],
        duration: units * 15,
        units,
        modifiers: mods,
      }));
    /** One 60-minute 97110 line with an assistant's minutes. */
    const assisted = (minutes: number, ...mods: Array<typeof GP>) => [
      {
        treatment_class_id: codeIds["97110"],
        duration: 60,
        units: 4,
        modifiers: mods,
        provided_by: [{ user_id: 105, minutes }],
      },
    ];
    const sheet = (patient: number, contextId: string, treatments: unknown[]) =>
      post("/apis/v1/treatment-sheet", { patient_id: String(patient), soap_context_id: contextId, treatments });
    const sign = (contextId: string) => post(`/apis/v1/soap-context/${contextId}/sign`);
    const complete = (contextId: string) =>
      post(`/apis/v1/soap-context/${contextId}`, { completed: true, status: "COMPLETED", completed_at: null });
    /** A visit written, signed and completed; answers the sheet's reply and the completion's. */
    const visit = async (patient: number, caseId: string, items: Line[], type = "FOLLOWUP_SOAP", at?: number) => {
      const n = await newNote(patient, caseId, type, at);
      const s = await sheet(patient, n.context_id, lines(...items));
      expect(s.body.code).toBe(2000);
      expect((await sign(n.context_id)).body.code).toBe(2000);
      const done = await complete(n.context_id);
      expect(done.body.data.status).toBe("COMPLETED");
      return { note: n, sheet: s.body.data, completed: done.body.data };
    };
    const year = async (patient: number) =>
      (await get(`/apis/v1/patient/${patient}/therapy-thresholds?year=2026`)).body.data;
    const reviewEvents = async () =>
      Number(await rt.scalar("select count(*) from outbox where event_type = 'medicare.review_threshold_reached'"));

    const payers = { partB: "", acme: "" };
    let patientWith: (last: string, payerRef: string) => Promise<{ patient: number; caseId: string }>;

    beforeAll(async () => {
      rt = await startTestRuntime(
        { OPENPRACTICE_PLAN_LIMITS: '{"free":100000}', OPENPRACTICE_WORKER_POLL_MS: "50" },
        { engine },
      );
      admin = await rt.token({ scope: "admin read write" });
      const r = rt.runtime.practice.storage.repositories;
      const now = new Date();
      await r.organisations.ensure({ id: 1, name: "Riverside Therapy", plan: "free", now });
      ids.clinic = (
        await r.organisations.ensureClinic({ organisationId: 1, name: "Main Street", timeZone: "America/Chicago" })
      ).id;
      await r.organisations.upsertProvider({
        organisationId: 1,
        userId: 101,
        firstName: "Dana",
        lastName: "Reyes",
        npi: null,
        supervisingUserId: null,
        clinicIds: [ids.clinic],
        credentials: ["DPT"],
      });
      // A physical therapist assistant, who furnishes part of some services.
      await r.organisations.upsertProvider({
        organisationId: 1,
        userId: 105,
        firstName: "Sam",
        lastName: "Ortiz",
        npi: null,
        supervisingUserId: 101,
        clinicIds: [ids.clinic],
        credentials: ["PTA"],
      });
      ids.category = (
        await r.catalog.ensureAppointmentCategory({
          organisationId: 1,
          name: "Visit",
          type: "IN_PERSON",
          durationMinutes: 45,
        })
      ).id;
      await r.catalog.enableSpecialization(1, "NEURO");
      expect((await post("/apis/v1/organisation/settings", { auto_submit_billing: true }, admin)).status).toBe(200);
      const therapy = [GP, GO, KX, CQ, CO];
      const catalog = await post(
        "/apis/v1/treatment-catalog",
        {
          codes: [
            { code: "97110", description: "Therapeutic exercise", timed: true, modifiers: therapy },
            { code: "97112", description: "Neuromuscular re-education", timed: true, modifiers: therapy },
            { code: "97140", description: "Manual therapy", timed: true, modifiers: therapy },
            { code: "97530", description: "Therapeutic activities", timed: true, modifiers: therapy },
            { code: "97161", description: "PT evaluation, low", timed: false, modifiers: therapy },
            { code: "97018", description: "Paraffin bath", timed: false, modifiers: therapy },
          ],
        },
        admin,
      );
      expect(catalog.body.code).toBe(2000);
      for (const c of (await get("/apis/v1/treatment-catalog")).body.data as Array<{
        code: string;
        treatment_class_id: number;
      }>)
        codeIds[c.code] = c.treatment_class_id;
      // Allowed amounts per unit, large enough that a few visits reach the thresholds; 97018 has none.
      const fees = await rt.call("POST", "/apis/v1/fee-schedule", {
        body: "year,code,allowed_amount\n2026,97110,200\n2026,97112,45\n2026,97140,50\n2026,97530,60\n2026,97161,100\n",
        token: admin,
        headers: { "content-type": "text/csv" },
      });
      expect(fees.status).toBe(200);

      const payer = async (body: Record<string, unknown>) => (await post("/v2/payers", body, admin)).body.id as string;
      const partB = await payer({ payer_id: "MACB1", name: "Novitas Part B", type: "medicare", medicare_part_b: true });
      const acme = await payer({ payer_id: "ACME1", name: "Acme Health", type: "commercial" });
      patientWith = async (last: string, payerRef: string) => {
        const p = (await post("/apis/v1/patient", { first_name: "Ruth", last_name: last, date_of_birth: "1950-03-03" }))
          .body.data.patient_id as number;
        const coverage = await post(`/v2/patients/${p}/coverages`, {
          payer_ref: payerRef,
          member_id: `M-${last}`,
          priority: "primary",
          plan_start_date: "2026-01-01",
        });
        expect(coverage.status).toBe(201);
        const c = await post("/apis/soap-enrichment/v1/patientCase", {
          patient_id: p,
          case_title: "Gait after stroke",
          specialization: "NEURO",
          icd_codes: [
            { id: 31, code: "I69.398", description: "Other sequelae of cerebral infarction", revision: "ICD10" },
          ],
          insurance_card_list: [{ insurance_card_id: Number(coverage.body.id), insurance_card_type: "PRIMARY" }],
        });
        expect(c.body.code).toBe(2000);
        return { patient: p, caseId: c.body.data.service_case_id as string };
      };
      payers.partB = partB;
      payers.acme = acme;
      const m = await patientWith("Medicare", partB);
      ids.medicare = m.patient;
      ids.caseMedicare = m.caseId;
      const c = await patientWith("Commercial", acme);
      ids.commercial = c.patient;
      ids.caseCommercial = c.caseId;
    });
    afterAll(() => rt?.stop());

    it("walks the year: amounts accumulate, KX from the crossing line on, buckets apart, the review event at $3,000", async () => {
      // The evaluation (no medical-necessity justification in its Plan) and two visits: $100 + $800 + $800.
      const evaluation = await visit(ids.medicare, ids.caseMedicare, [["97161", 1, GP]], "INITIAL_SOAP");
      expect(evaluation.sheet.medicare).toMatchObject({
        year: 2026,
        thresholds: { kx: "2480.00", review: "3000.00" },
        buckets: { PT_SLP: { prior_amount: "0.00", visit_amount: "100.00", kx_exceeded: false } },
        lines: [{ line: 0, code: "97161", bucket: "PT_SLP", allowed_amount: "100.00", proposed_modifiers: [] }],
        warnings: [],
      });
      expect(evaluation.completed.warnings).toEqual([]);
      ids.plan = evaluation.completed.plan_of_care_id;
      await visit(ids.medicare, ids.caseMedicare, [["97110", 4, GP]]);
      const second = await visit(ids.medicare, ids.caseMedicare, [["97110", 4, GP]]);
      expect(second.sheet.medicare.buckets.PT_SLP).toMatchObject({ prior_amount: "900.00", visit_amount: "800.00" });
      expect((await year(ids.medicare)).buckets.PT_SLP).toMatchObject({
        incurred: "1700.00",
        remaining_to_kx: "780.00",
        remaining_to_review: "1300.00",
      });

      // The crossing visit: $1,700 + 97140 ($100) = $1,800, + 97110 ($800) = $2,600 > $2,480 → KX from line 1 on
      // in PT+SLP; the OT line (GO) is another bucket and gets none.
      const crossing = await newNote(ids.medicare, ids.caseMedicare);
      const items: Line[] = [
        ["97140", 2, GP],
        ["97110", 4, GP],
        ["97530", 1, GO],
        ["97112", 1, GP],
      ];
      const written = (await sheet(ids.medicare, crossing.context_id, lines(...items))).body.data;
      expect(
        written.medicare.lines.map((l: any) => [l.code, l.bucket, l.allowed_amount, l.proposed_modifiers]),
      ).toEqual([
        ["97140", "PT_SLP", "100.00", []],
        ["97110", "PT_SLP", "800.00", ["KX"]],
        ["97530", "OT", "60.00", []],
        ["97112", "PT_SLP", "45.00", ["KX"]],
      ]);
      expect(written.medicare.buckets).toEqual({
        PT_SLP: { prior_amount: "1700.00", visit_amount: "945.00", kx_exceeded: true, review_exceeded: false },
        OT: { prior_amount: "0.00", visit_amount: "60.00", kx_exceeded: false, review_exceeded: false },
      });
      expect(written.medicare.warnings.map((w: any) => w.code)).toEqual([
        "KX_THRESHOLD_EXCEEDED",
        "MEDICAL_NECESSITY_MISSING",
      ]);
      // Signing warns (the plan of care has no justification) and still signs.
      const signed = await sign(crossing.context_id);
      expect(signed.body.code).toBe(2000);
      expect(signed.body.data.warnings).toEqual(
        expect.arrayContaining([expect.objectContaining({ code: "MEDICAL_NECESSITY_MISSING", bucket: null })]),
      );
      // The clinic puts KX where proposed (signing again after the change): nothing left to propose.
      const sheetId = written.id;
      const withKx = await post(
        `/apis/v1/treatment-sheet/${sheetId}`,
        lines(["97140", 2, GP], ["97110", 4, GP, KX], ["97530", 1, GO], ["97112", 1, GP, KX]),
      );
      expect(withKx.body.data.medicare.lines.map((l: any) => [l.proposed_modifiers, l.kx_required])).toEqual([
        [[], false],
        [[], true],
        [[], false],
        [[], true],
      ]);
      expect((await sign(crossing.context_id)).body.code).toBe(2000);
      const crossed = await complete(crossing.context_id);
      expect(crossed.body.data.warnings.map((w: any) => w.code)).toContain("KX_THRESHOLD_EXCEEDED");
      // The claim carries the modifiers as put on the lines.
      const claim = (await get(`/apis/v1/soap-context/${crossing.context_id}/claim`)).body.data;
      expect(claim.lines.map((l: any) => [l.code, l.modifiers])).toEqual([
        ["97140", ["GP"]],
        ["97110", ["GP", "KX"]],
        ["97530", ["GO"]],
        ["97112", ["GP", "KX"]],
      ]);

      // A re-evaluation writes the justification into the plan of care: later signatures do not warn of it.
      const reeval = await newNote(ids.medicare, ids.caseMedicare, "INITIAL_SOAP");
      await reeval.write(
        "response.Plan.plan.medical_necessity",
        "Falls risk; gait speed 0.7 m/s needs skilled training",
      );
      expect((await sign(reeval.context_id)).body.data.warnings).toEqual([]);
      const reevaluated = await complete(reeval.context_id);
      const plan = (await get(`/apis/v1/plan-of-care/${reevaluated.body.data.plan_of_care_id}`)).body.data;
      expect(plan.medical_necessity).toBe("Falls risk; gait speed 0.7 m/s needs skilled training");

      // $2,645 + $400 = $3,045: past the review threshold; every PT line past KX from the first.
      expect(await reviewEvents()).toBe(0);
      const fourth = await newNote(ids.medicare, ids.caseMedicare);
      const last = (await sheet(ids.medicare, fourth.context_id, lines(["97110", 2, GP]))).body.data.medicare;
      expect(last.lines[0].proposed_modifiers).toEqual(["KX"]);
      expect(last.warnings.map((w: any) => w.code)).toEqual(["KX_THRESHOLD_EXCEEDED", "REVIEW_THRESHOLD_EXCEEDED"]);
      expect((await sign(fourth.context_id)).body.data.warnings.map((w: any) => w.code)).toEqual([
        "KX_THRESHOLD_EXCEEDED",
        "REVIEW_THRESHOLD_EXCEEDED",
      ]);
      await complete(fourth.context_id);
      expect(await reviewEvents()).toBe(1);
      const event = JSON.parse(
        String(await rt.scalar("select data from outbox where event_type = 'medicare.review_threshold_reached'")),
      );
      expect(event).toEqual({
        organisation_id: 1,
        patient_id: ids.medicare,
        soap_note_id: fourth.context_id,
        year: 2026,
        bucket: "PT_SLP",
        incurred_cents: 304_500,
        threshold_cents: 300_000,
      });
      // Another visit past $3,000 raises no second event for the bucket.
      await visit(ids.medicare, ids.caseMedicare, [["97112", 1, GP]]);
      expect(await reviewEvents()).toBe(1);

      const y = await year(ids.medicare);
      expect(y.thresholds).toEqual({ kx: "2480.00", review: "3000.00" });
      expect(y.buckets.PT_SLP).toMatchObject({
        incurred: "3090.00",
        remaining_to_kx: "0.00",
        remaining_to_review: "0.00",
      });
      expect(y.buckets.OT).toMatchObject({
        incurred: "60.00",
        remaining_to_kx: "2420.00",
        remaining_to_review: "2940.00",
      });
      expect(y.buckets.PT_SLP.charges.map((c: any) => [c.code, c.allowed_amount, c.kx])).toEqual([
        ["97161", "100.00", false],
        ["97110", "800.00", false],
        ["97110", "800.00", false],
        ["97140", "100.00", false],
        ["97110", "800.00", true],
        ["97112", "45.00", true],
        ["97110", "400.00", true],
        ["97112", "45.00", true],
      ]);
      expect(y.buckets.OT.charges).toEqual([
        expect.objectContaining({ source: "visit", code: "97530", units: 1, soap_context_id: crossing.context_id }),
      ]);
    });

    it("counts amounts incurred elsewhere from their date, names bad input and writes nothing", async () => {
      const before = await year(ids.medicare);
      const recorded = await post(`/apis/v1/patient/${ids.medicare}/therapy-thresholds/incurred-elsewhere`, {
        service_date: "2026-03-01",
        bucket: "OT",
        amount: "2400.00",
        description: "Hospital outpatient OT, spring",
      });
      expect(recorded.body.data).toMatchObject({
        source: "elsewhere",
        bucket: "OT",
        service_date: "2026-03-01",
        allowed_amount: "2400.00",
        description: "Hospital outpatient OT, spring",
        recorded_by: 101,
      });
      const after = await year(ids.medicare);
      expect(after.buckets.OT.incurred).toBe("2460.00");
      expect(after.buckets.OT.charges[0]).toMatchObject({ source: "elsewhere", service_date: "2026-03-01" });
      // The next OT line now crosses $2,480: $2,460 + $60 → KX on it.
      const n = await newNote(ids.medicare, ids.caseMedicare);
      const ot = (await sheet(ids.medicare, n.context_id, lines(["97530", 1, GO]))).body.data.medicare;
      expect(ot.lines[0]).toMatchObject({ bucket: "OT", proposed_modifiers: ["KX"] });

      const bad = await post(`/apis/v1/patient/${ids.medicare}/therapy-thresholds/incurred-elsewhere`, {
        service_date: "2026-02-30",
        bucket: "OT",
        amount: "-5",
      });
      expect(bad.status).toBe(400);
      expect(bad.body.errors.map((e: any) => e.field).sort()).toEqual(["amount", "service_date"]);
      const unknownBucket = await post(`/apis/v1/patient/${ids.medicare}/therapy-thresholds/incurred-elsewhere`, {
        service_date: "2026-02-01",
        bucket: "SLP",
        amount: "5",
      });
      expect(unknownBucket.status).toBe(400);
      expect(unknownBucket.body.errors[0].field).toBe("bucket");
      expect((await year(ids.medicare)).buckets.OT.charges).toHaveLength(after.buckets.OT.charges.length);
      expect((await get(`/apis/v1/patient/${ids.medicare}/therapy-thresholds?year=twenty`)).status).toBe(400);
      expect((await get(`/apis/v1/patient/${ids.medicare}/therapy-thresholds`)).status).toBe(400);
      expect((await get("/apis/v1/patient/999999/therapy-thresholds?year=2026")).body.error_code).toBe(
        "PATIENT_NOT_FOUND",
      );
      // A year the table does not know: amounts still listed, no thresholds.
      const future = (await get(`/apis/v1/patient/${ids.medicare}/therapy-thresholds?year=2031`)).body.data;
      expect(future).toMatchObject({ year: 2031, thresholds: null });
      expect(future.buckets.PT_SLP).toMatchObject({ incurred: "0.00", remaining_to_kx: null });
      // A token restricted to clinics cannot read the year, which spans clinics.
      const restricted = await rt.token({ scope: "read", clinicIds: [ids.clinic] });
      expect((await get(`/apis/v1/patient/${ids.medicare}/therapy-thresholds?year=2026`, restricted)).status).toBe(403);
      const restrictedWrite = await rt.token({ scope: "write", clinicIds: [ids.clinic] });
      const refusedWrite = await post(
        `/apis/v1/patient/${ids.medicare}/therapy-thresholds/incurred-elsewhere`,
        { service_date: "2026-02-01", bucket: "OT", amount: "5" },
        restrictedWrite,
      );
      expect(refusedWrite.status).toBe(403);
      expect((await year(ids.medicare)).buckets.OT.charges).toHaveLength(after.buckets.OT.charges.length);
      expect(before.buckets.OT.incurred).toBe("60.00");
    });

    it("warns of a missing fee and a line without a discipline modifier, and leaves a commercial patient alone", async () => {
      const n = await newNote(ids.medicare, ids.caseMedicare);
      const s = (await sheet(ids.medicare, n.context_id, lines(["97018", 1, GP], ["97112", 1]))).body.data.medicare;
      expect(s.lines.map((l: any) => [l.code, l.bucket, l.allowed_amount])).toEqual([
        ["97018", "PT_SLP", null],
        ["97112", "PT_SLP", "45.00"], // the plan of care's discipline (PT)
      ]);
      expect(s.warnings).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ code: "FEE_MISSING", line: 0 }),
          expect.objectContaining({ code: "DISCIPLINE_MODIFIER_MISSING", line: 1 }),
        ]),
      );

      const commercial = await visit(ids.commercial, ids.caseCommercial, [["97110", 20, GP]]);
      expect(commercial.sheet.medicare).toBeNull();
      expect(commercial.completed.warnings).toEqual([]);
      const y = await year(ids.commercial);
      expect(y.buckets.PT_SLP).toMatchObject({ incurred: "0.00", charges: [] });
    });

    it("proposes GP from the plan of care's discipline, refuses completion without it, and brings CQ past 10% of a service's minutes", async () => {
      // The evaluation was by a DPT: the plan of care's discipline is PT.
      expect((await get(`/apis/v1/plan-of-care/${ids.plan}`)).body.data.discipline).toBe("PT");

      const before = (await year(ids.medicare)).buckets.PT_SLP.charges.length;
      const n = await newNote(ids.medicare, ids.caseMedicare);
      const bare = (await sheet(ids.medicare, n.context_id, lines(["97140", 1]))).body.data;
      expect(bare.medicare.lines[0]).toMatchObject({
        discipline: "PT",
        bucket: "PT_SLP",
        proposed_modifiers: ["GP", "KX"],
      });
      expect(bare.medicare.warnings.map((w: any) => w.code)).toContain("DISCIPLINE_MODIFIER_MISSING");
      expect((await sign(n.context_id)).body.code).toBe(2000);
      const refused = await complete(n.context_id);
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({
        error_code: "NOTE_INCOMPLETE",
        details: { lines_without_discipline_modifier: [{ line: 0, code: "97140", proposed_modifier: "GP" }] },
      });
      expect(refused.body.message).toContain("GP, GO or GN");
      expect((await year(ids.medicare)).buckets.PT_SLP.charges).toHaveLength(before);
      // With GP (and KX, the year being past) it completes.
      await post(`/apis/v1/treatment-sheet/${bare.id}`, lines(["97140", 1, GP, KX]));
      expect((await sign(n.context_id)).body.code).toBe(2000);
      expect((await complete(n.context_id)).body.data.status).toBe("COMPLETED");
      // A commercial visit without a discipline modifier completes: no Medicare rule fires.
      const c = await newNote(ids.commercial, ids.caseCommercial);
      expect((await sheet(ids.commercial, c.context_id, lines(["97140", 1]))).body.data.medicare).toBeNull();
      expect((await sign(c.context_id)).body.code).toBe(2000);
      expect((await complete(c.context_id)).body.data.status).toBe("COMPLETED");

      // The assistant's 12 minutes of a 60-minute service: CQ, paid at 85%; 5 minutes: none.
      const a = await newNote(ids.medicare, ids.caseMedicare);
      const twelve = (await sheet(ids.medicare, a.context_id, assisted(12, GP, KX))).body.data;
      expect(twelve.treatments[0].provided_by).toEqual([{ user_id: 105, minutes: 12 }]);
      expect(twelve.medicare.lines[0]).toMatchObject({
        proposed_modifiers: ["CQ"],
        assistant_minutes: 12,
        payment_percent: 85,
      });
      expect(twelve.medicare.warnings.map((w: any) => w.code)).toContain("ASSISTANT_MODIFIER_DUE");
      const five = (await post(`/apis/v1/treatment-sheet/${twelve.id}`, assisted(5, GP, KX))).body.data;
      expect(five.medicare.lines[0]).toMatchObject({
        proposed_modifiers: [],
        assistant_minutes: null,
        payment_percent: 100,
      });
      await post(`/apis/v1/treatment-sheet/${twelve.id}`, assisted(12, GP, KX, CQ));
      expect((await sign(a.context_id)).body.code).toBe(2000);
      expect((await complete(a.context_id)).body.data.status).toBe("COMPLETED");
      const claim = (await get(`/apis/v1/soap-context/${a.context_id}/claim`)).body.data;
      expect(claim.lines).toEqual([
        { code: "97110", modifiers: ["GP", "KX", "CQ"], units: 4, minutes: 60, payment_percent: 85 },
      ]);

      // Minutes by provider: an unknown provider, or more minutes than the line's, are named; nothing written.
      const b = await newNote(ids.medicare, ids.caseMedicare);
      const unknown = await sheet(ids.medicare, b.context_id, [
        { ...assisted(12, GP)[0], provided_by: [{ user_id: 999, minutes: 12 }] },
      ]);
      expect(unknown.status).toBe(400);
      expect(unknown.body.errors[0].field).toBe("treatments.0.provided_by.0.user_id");
      const tooMany = await sheet(ids.medicare, b.context_id, [
        { ...assisted(12, GP)[0], provided_by: [{ user_id: 105, minutes: 61 }] },
      ]);
      expect(tooMany.body.errors[0].field).toBe("treatments.0.provided_by");
      expect((await get(`/apis/v1/soap-context/${b.context_id}`)).body.data.treatment_sheet_id).toBe(0);
    });

    it("refuses the 10th treatment day's daily note without a progress report, warns of certification, and raises its task", async () => {
      const DAY_S = 86_400;
      const today = Math.floor(
        Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate()) / 1000,
      );
      const E = today - 70 * DAY_S + 15 * HOUR; // the evaluation, 70 days ago, 09:00 or 10:00 in Chicago
      const on = (days: number) => new Date((E + days * DAY_S) * 1000).toISOString().slice(0, 10);
      const p = await patientWith("Progress", payers.partB);
      const caseView = async () => (await get(`/apis/soap-enrichment/v1/patientCase/${p.caseId}`)).body.data;
      const evaluation = await visit(p.patient, p.caseId, [["97161", 1, GP]], "INITIAL_SOAP", E);
      const planId = evaluation.completed.plan_of_care_id;
      // Eight daily notes on the next eight days: treatment days 2 to 9 of the period.
      for (let d = 1; d <= 8; d++) await visit(p.patient, p.caseId, [["97110", 1, GP]], "FOLLOWUP_SOAP", E + d * DAY_S);
      expect((await caseView()).visits_since_progress_report).toBe(9);
      // The 10th treatment day: a daily note is refused, naming the rule; nothing signed.
      const tenth = await newNote(p.patient, p.caseId, "FOLLOWUP_SOAP", E + 9 * DAY_S);
      await sheet(p.patient, tenth.context_id, lines(["97110", 1, GP]));
      const refused = await sign(tenth.context_id);
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({
        code: 4101,
        error_code: "PROGRESS_REPORT_DUE",
        details: { treatment_days: 10, interval: 10 },
      });
      expect(refused.body.message).toContain("progress report at least every 10 treatment days");
      expect((await get(`/apis/v1/soap-context/${tenth.context_id}/signatures`)).body.data.signatures).toEqual([]);
      // Written as a progress report it signs and completes, and a new period starts with it.
      await visit(p.patient, p.caseId, [["97110", 1, GP]], "PROGRESS_REPORT", E + 9 * DAY_S + HOUR);
      expect((await caseView()).visits_since_progress_report).toBe(1);
      const next = await visit(p.patient, p.caseId, [["97110", 1, GP]], "FOLLOWUP_SOAP", E + 10 * DAY_S);
      expect(next.completed.status).toBe("COMPLETED");
      expect((await caseView()).visits_since_progress_report).toBe(2);

      // Not certified: 10 days before the 30th day a visit warns that it is due; after it, that it has lapsed.
      const codes = (r: any) => r.warnings.map((w: any) => w.code);
      const due = await visit(p.patient, p.caseId, [["97110", 1, GP]], "FOLLOWUP_SOAP", E + 25 * DAY_S);
      expect(codes(due.completed)).toContain("CERTIFICATION_DUE");
      const early = await visit(p.patient, p.caseId, [["97110", 1, GP]], "FOLLOWUP_SOAP", E + 12 * DAY_S);
      expect(codes(early.completed)).not.toContain("CERTIFICATION_DUE");
      const lapsedNote = await newNote(p.patient, p.caseId, "FOLLOWUP_SOAP", E + 35 * DAY_S);
      await sheet(p.patient, lapsedNote.context_id, lines(["97110", 1, GP]));
      const lapsed = (await sign(lapsedNote.context_id)).body.data;
      expect(lapsed.warnings).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ code: "CERTIFICATION_LAPSED", message: expect.stringContaining(on(30)) }),
        ]),
      );
      const plan = (await get(`/apis/v1/plan-of-care/${planId}`)).body.data;
      expect(plan.certification).toEqual({
        status: "LAPSED",
        due_date: on(30),
        certified_on: null,
        certified_by: null,
      });
      // The task for the case's provider (the evaluating DPT: the case names no therapist).
      const taskOf = async (status: string) => {
        for (let i = 0; i < 200; i++) {
          const found = (
            await get(`/apis/v1/tasks?rule=plan_certification&status=${status}&size=50`)
          ).body.data.tasks.find((t: any) => t.subject.id === String(p.caseId).replace("SERVICE_CASE_", ""));
          if (found) return found;
          await new Promise((r) => setTimeout(r, 50));
        }
        throw new Error(`no ${status} plan_certification task`);
      };
      const raised = await taskOf("open");
      expect(raised).toMatchObject({
        title: "Certify the plan of care",
        priority: "high",
        origin: "system",
        assignee: { type: "provider", id: 101 },
        subject: { type: "case" },
      });

      // A plan belongs to its evaluation's clinic: a token restricted to another clinic neither reads nor certifies it.
      const lakeside = (
        await rt.runtime.practice.storage.repositories.organisations.ensureClinic({
          organisationId: 1,
          name: "Lakeside",
          timeZone: "America/Chicago",
        })
      ).id;
      const outside = await rt.token({ scope: "read write", clinicIds: [lakeside] });
      expect((await get(`/apis/v1/plan-of-care/${planId}`, outside)).body.error_code).toBe("PLAN_OF_CARE_NOT_FOUND");
      const outsideCertify = await post(
        `/apis/v1/plan-of-care/${planId}/certification`,
        { signed_on: on(10), signed_by: "Dr. Lee Park" },
        outside,
      );
      expect(outsideCertify.status).toBe(404);
      expect(outsideCertify.body.error_code).toBe("PLAN_OF_CARE_NOT_FOUND");
      expect((await get(`/apis/v1/plan-of-care/${planId}`)).body.data.certification.certified_on).toBeNull();
      const inside = await rt.token({ scope: "read", clinicIds: [ids.clinic] });
      expect((await get(`/apis/v1/plan-of-care/${planId}`, inside)).body.data.plan_of_care_id).toBe(planId);

      // Certifying: a date before the evaluation or ahead, or no signer, is named; then it is recorded.
      const certify = (body: unknown) => post(`/apis/v1/plan-of-care/${planId}/certification`, body);
      const before = await certify({ signed_on: on(-1), signed_by: "Dr. Lee Park" });
      expect(before.status).toBe(400);
      expect(before.body.errors[0].field).toBe("signed_on");
      const ahead = await certify({ signed_on: on(90), signed_by: "Dr. Lee Park" });
      expect(ahead.body.errors[0].field).toBe("signed_on");
      expect((await certify({ signed_on: on(10) })).status).toBe(400);
      const certified = await certify({ signed_on: on(10), signed_by: "Dr. Lee Park, MD, NPI 1234567893" });
      expect(certified.body.data.certification).toEqual({
        status: "CERTIFIED",
        due_date: on(89),
        certified_on: on(10),
        certified_by: "Dr. Lee Park, MD, NPI 1234567893",
      });
      expect((await taskOf("done")).resolution).toBe("certified");
      // The certified period's end: 10 days ahead it warns; after it, it has lapsed (recertification is due).
      const ending = await visit(p.patient, p.caseId, [["97110", 1, GP]], "FOLLOWUP_SOAP", E + 82 * DAY_S);
      expect(ending.completed.warnings).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ code: "CERTIFICATION_DUE", message: expect.stringContaining(on(89)) }),
        ]),
      );
      const after = await newNote(p.patient, p.caseId, "PROGRESS_REPORT", E + 95 * DAY_S);
      await sheet(p.patient, after.context_id, lines(["97110", 1, GP]));
      expect(codes((await sign(after.context_id)).body.data)).toContain("CERTIFICATION_LAPSED");
    });

    it("counts signed notes as treatment days: two daily notes signed before either completes cannot both pass as the 9th", async () => {
      const DAY_S = 86_400;
      const E = DAY - 150 * DAY_S;
      const p = await patientWith("Signed", payers.partB);
      await visit(p.patient, p.caseId, [["97161", 1, GP]], "INITIAL_SOAP", E);
      // Days 2 to 8 completed.
      for (let d = 1; d <= 7; d++) await visit(p.patient, p.caseId, [["97110", 1, GP]], "FOLLOWUP_SOAP", E + d * DAY_S);
      // The 10th day's note signed first, while 8 days are documented: it is the 9th, allowed; not completed.
      const later = await newNote(p.patient, p.caseId, "FOLLOWUP_SOAP", E + 9 * DAY_S);
      await sheet(p.patient, later.context_id, lines(["97110", 1, GP]));
      expect((await sign(later.context_id)).body.code).toBe(2000);
      // The 9th day's note: the signed one counts, so this is the 10th treatment day and needs a progress report.
      const ninth = await newNote(p.patient, p.caseId, "FOLLOWUP_SOAP", E + 8 * DAY_S);
      await sheet(p.patient, ninth.context_id, lines(["97110", 1, GP]));
      const refused = await sign(ninth.context_id);
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ error_code: "PROGRESS_REPORT_DUE", details: { treatment_days: 10 } });
      expect((await get(`/apis/v1/soap-context/${ninth.context_id}/signatures`)).body.data.signatures).toEqual([]);
      // The signed one still completes (it is the 9th), and the case counts it.
      expect((await complete(later.context_id)).body.data.status).toBe("COMPLETED");
      expect(
        (await get(`/apis/soap-enrichment/v1/patientCase/${p.caseId}`)).body.data.visits_since_progress_report,
      ).toBe(9);
    });

    it("leaves a commercial case's 10th daily note alone", async () => {
      const DAY_S = 86_400;
      const c = await patientWith("Daily", payers.acme);
      const start = DAY - 200 * DAY_S;
      await visit(c.patient, c.caseId, [["97161", 1, GP]], "INITIAL_SOAP", start);
      for (let d = 1; d <= 10; d++)
        await visit(c.patient, c.caseId, [["97110", 1]], "FOLLOWUP_SOAP", start + d * DAY_S);
      expect(
        (await get(`/apis/soap-enrichment/v1/patientCase/${c.caseId}`)).body.data.visits_since_progress_report,
      ).toBe(11);
    });

    it("of two completions that each take the year past $3,000 at once, exactly one raises the review event", async () => {
      const p = await patientWith("Race", payers.partB);
      const elsewhere = await post(`/apis/v1/patient/${p.patient}/therapy-thresholds/incurred-elsewhere`, {
        service_date: "2026-06-01",
        bucket: "PT_SLP",
        amount: "2950.00",
      });
      expect(elsewhere.status).toBe(200);
      const events = async () =>
        Number(
          await rt.scalar(
            `select count(*) from outbox where event_type = 'medicare.review_threshold_reached' and data like '%"patient_id":${p.patient},%'`,
          ),
        );
      const ready = [];
      for (let i = 0; i < 2; i++) {
        const n = await newNote(p.patient, p.caseId);
        await sheet(p.patient, n.context_id, lines(["97110", 1, GP, KX]));
        expect((await sign(n.context_id)).body.code).toBe(2000);
        ready.push(n.context_id);
      }
      const done = await Promise.all(ready.map((contextId) => complete(contextId)));
      expect(done.map((d) => d.body.data.status)).toEqual(["COMPLETED", "COMPLETED"]);
      expect(await events()).toBe(1);
      expect((await year(p.patient)).buckets.PT_SLP.incurred).toBe("3350.00");

      // An amount incurred elsewhere that crosses $3,000 raises it too (no note), once; the next raises none.
      const otherPatient = await patientWith("Elsewhere", payers.partB);
      const elsewhereEvents = async () =>
        Number(
          await rt.scalar(
            `select count(*) from outbox where event_type = 'medicare.review_threshold_reached' and data like '%"patient_id":${otherPatient.patient},%'`,
          ),
        );
      const record = (amount: string) =>
        post(`/apis/v1/patient/${otherPatient.patient}/therapy-thresholds/incurred-elsewhere`, {
          service_date: "2026-03-01",
          bucket: "OT",
          amount,
        });
      expect((await record("2999.99")).status).toBe(200);
      expect(await elsewhereEvents()).toBe(0);
      expect((await record("0.02")).status).toBe(200);
      expect((await record("10.00")).status).toBe(200);
      expect(await elsewhereEvents()).toBe(1);
      const crossing = JSON.parse(
        String(
          await rt.scalar(
            `select data from outbox where event_type = 'medicare.review_threshold_reached' and data like '%"patient_id":${otherPatient.patient},%'`,
          ),
        ),
      );
      expect(crossing).toMatchObject({ soap_note_id: null, year: 2026, bucket: "OT", incurred_cents: 300_001 });
    });
  });
}
