import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { availableEngines } from "../support/engines.js";
import { pdftotext } from "../support/pdftotext.js";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";

const DAY = Math.floor(Date.parse("2031-09-01T00:00:00Z") / 1000);
const HOUR = 3600;
const GP = {
  cpt_modifier_id: 1,
  cpt_modifier_code: "GP",
  class_name: "Therapy plan",
  description: "Under a PT plan of care",
  filter: true,
};
const MOD59 = {
  cpt_modifier_id: 2,
  cpt_modifier_code: "59",
  class_name: "Distinct",
  description: "Distinct procedural service",
  filter: false,
};

// Treatment sheets, signing, completion, the PDF summaries, claim and plan of care over HTTP, on every engine this run has.
for (const engine of availableEngines()) {
  describe(`[${engine}] v1 SOAP workflow over HTTP (spec 4.1)`, () => {
    let rt: TestRuntime;
    let admin: string;
    let supervisor: string;
    const ids = { clinic: 0, category: 0, patient: 0, caseId: "", ex: 0, manual: 0, eval: 0 };
    const call = async (method: string, path: string, body?: unknown, token?: string) => {
      const res = await rt.call(method, path, { ...(body === undefined ? {} : { body }), ...(token ? { token } : {}) });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    };
    const post = (path: string, body?: unknown, token?: string) => call("POST", path, body, token);
    const get = (path: string, token?: string) => call("GET", path, undefined, token);
    const count = async (table: string) => Number(await rt.scalar(`select count(*) from ${table}`));
    const settings = (body: Record<string, unknown>) => post("/apis/v1/organisation/settings", body, admin);
    let slot = 0;
    const appointment = async () => {
      slot += 1;
      const res = await post("/apis/v1/appointment", {
        doctor_id: 101,
        patient_id: ids.patient,
        clinic_id: ids.clinic,
        appointment_category: [ids.category],
        timestamp: DAY + slot * HOUR,
        end_timestamp: DAY + slot * HOUR + 1800,
        payment_mode: "SELF_PAY",
        service_case_id: ids.caseId,
      });
      expect(res.body.code).toBe(2000);
      return res.body.data.appointment_id as number;
    };
    const newNote = async (type = "FOLLOWUP_SOAP") => {
      const res = await post("/apis/hep/v2/soap-context", {
        patient_id: ids.patient,
        type,
        appointment_id: await appointment(),
      });
      expect(res.body.code).toBe(2000);
      return res.body.data;
    };
    /** Writes paths into a section's form at its next version. */
    const write = async (
      submissionId: string,
      contextId: string,
      partialResponse: Record<string, unknown>,
      token?: string,
    ) => {
      const current = (await get(`/apis/v1/form-data/${submissionId}`)).body.data.version;
      return post(
        "/apis/v1/form-data/partial",
        { submissionId, soapContextId: contextId, partialResponse, version: current + 1 },
        token,
      );
    };
    const fill = async (n: any) => {
      expect(
        (
          await write(n.subjective_submission_id, n.context_id, {
            "response.Subjective.history.chief_complaint": "Low back pain after lifting",
            "response.Subjective.history.pain_scale": 6,
          })
        ).status,
      ).toBe(200);
      expect(
        (
          await write(n.objective_submission_id, n.context_id, {
            "response.Objective.rom.lumbar_flexion": "40 degrees",
          })
        ).status,
      ).toBe(200);
      expect(
        (
          await write(n.plan_submission_id, n.context_id, {
            "response.Plan.plan.goals": ["Lift 10 kg without pain", "Sit 60 minutes"],
            "response.Plan.plan.home_program": "Bridges 3x10",
          })
        ).status,
      ).toBe(200);
    };
    const sheet = (n: any, treatments: unknown[]) =>
      post("/apis/v1/treatment-sheet", { patient_id: String(ids.patient), soap_context_id: n.context_id, treatments });
    const signed = async (n: any) => {
      const s = await post(`/apis/v1/soap-context/${n.context_id}/sign`);
      expect(s.body).toMatchObject({ code: 2000 });
      return s.body.data;
    };
    const complete = (contextId: string) =>
      post(`/apis/v1/soap-context/${contextId}`, { completed: true, status: "COMPLETED", completed_at: null });
    /** The note once the summary job has run (the runtime's workers poll every 50 ms here). */
    const rendered = async (contextId: string) => {
      for (let i = 0; i < 200; i++) {
        const n = (await get(`/apis/v1/soap-context/${contextId}`)).body.data;
        if (n.summary_doc_url) return n;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error("the summary job did not run within 10 s");
    };

    beforeAll(async () => {
      rt = await startTestRuntime(
        { OPENPRACTICE_PLAN_LIMITS: '{"free":100000}', OPENPRACTICE_WORKER_POLL_MS: "50" },
        { engine },
      );
      admin = await rt.token({ scope: "admin read write" });
      supervisor = await rt.token({ userId: 103 });
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
        supervisingUserId: 103,
        clinicIds: [ids.clinic],
      });
      await r.organisations.upsertProvider({
        organisationId: 1,
        userId: 103,
        firstName: "Helen",
        lastName: "Marsh",
        npi: null,
        supervisingUserId: null,
        clinicIds: [ids.clinic],
      });
      ids.category = (
        await r.catalog.ensureAppointmentCategory({
          organisationId: 1,
          name: "Visit",
          type: "IN_PERSON",
          durationMinutes: 45,
        })
      ).id;
      await r.catalog.enableSpecialization(1, "MSK");
      const codes = await post(
        "/apis/v1/treatment-catalog",
        {
          codes: [
            { code: "97110", description: "Therapeutic exercise (our words)", timed: true, modifiers: [GP, MOD59] },
            { code: "97140", description: "Manual therapy (our words)", timed: true, modifiers: [GP] },
            {
              code: "97161",
              description: "Evaluation, low complexity (our words)",
              timed: false,
              note_types: ["INITIAL_SOAP"],
            },
          ],
        },
        admin,
      );
      expect(codes.body.code).toBe(2000);
      const catalog = (await get("/apis/v1/treatment-catalog")).body.data as {
        code: string;
        treatment_class_id: number;
      }[];
      ids.ex = catalog.find((c) => c.code === "97110")!.treatment_class_id;
      ids.manual = catalog.find((c) => c.code === "97140")!.treatment_class_id;
      ids.eval = catalog.find((c) => c.code === "97161")!.treatment_class_id;
      ids.patient = (
        await post("/apis/v1/patient", { first_name: "Ada", last_name: "Quill", date_of_birth: "1970-07-07" })
      ).body.data.patient_id;
      const c = await post("/apis/soap-enrichment/v1/patientCase", {
        patient_id: ids.patient,
        case_title: "Low back pain",
        specialization: "MSK",
        frequency_and_duration: "2x/week for 6 weeks",
        icd_codes: [{ id: 31, code: "M54.50", description: "Low back pain, unspecified", revision: "ICD10" }],
      });
      ids.caseId = c.body.data.service_case_id;
    });
    afterAll(async () => {
      await rt.stop();
    });

    it("walks the whole workflow: create, diagnoses, billing codes, sheet, sign, complete; the PDF reads back with pdftotext", async () => {
      expect((await settings({ auto_submit_billing: true })).body.data).toEqual({
        billing_unit_rule: "cms_8_minute",
        require_cosign: false,
        auto_submit_billing: true,
        require_plan_section: false,
      });
      // 1. Create the note.
      const created = await newNote("INITIAL_SOAP");
      expect(created).toMatchObject({
        status: "INCOMPLETED",
        treatment_sheet_id: 0,
        plan_of_care_id: null,
        submit_for_billing: false,
        billing_status: null,
        is_soap_note_editable: true,
      });
      // 2. Diagnoses: the case's code is already there; add a second one at the next version.
      const assessment = (await get(`/apis/v1/form-data/${created.assessment_submission_id}`)).body.data;
      expect(assessment.response.Assessment.diagnosis.medical_diagnosis.map((d: { code: string }) => d.code)).toEqual([
        "M54.50",
      ]);
      const dx = [
        ...assessment.response.Assessment.diagnosis.medical_diagnosis,
        {
          uuid: "u-2",
          id: 77,
          code: "M54.16",
          description: "Radiculopathy, lumbar region",
          revision: "ICD10",
          billing_type: "BILLABLE",
          is_primary: false,
        },
      ];
      const written = await post("/apis/v1/form-data/partial", {
        submissionId: created.assessment_submission_id,
        soapContextId: created.context_id,
        partialResponse: { "response.Assessment.diagnosis.medical_diagnosis": dx },
        version: assessment.version + 1,
      });
      expect(written.body.data.version).toBe(assessment.version + 1);
      await fill(created);
      // 3. Billing codes for the visit.
      const latest = (
        await get(
          `/apis/v1/treatment-catalog/latest?appointment_id=${created.appointment_id}&speciality=MSK&soap_note_type=INITIAL_SOAP`,
        )
      ).body.data;
      expect(latest.codes.map((c: { code: string }) => c.code)).toEqual(["97110", "97140", "97161"]);
      // 4. Create the sheet (treatment_sheet_id was 0), then update it.
      const first = await sheet(created, [
        { treatment_class_id: ids.ex, duration: 20, units: 1, modifiers: [{ cpt_modifier_id: 1 }] },
      ]);
      expect(first.body.code).toBe(2000);
      const sheetId = first.body.data.id;
      expect((await get(`/apis/v1/soap-context/${created.context_id}`)).body.data.treatment_sheet_id).toBe(sheetId);
      const updated = await post(`/apis/v1/treatment-sheet/${sheetId}`, [
        {
          treatment_class_id: ids.ex,
          duration: 33,
          units: 2,
          modifiers: [{ cpt_modifier_id: 1, cpt_modifier_code: "gp" }],
        },
        { treatment_class_id: ids.manual, duration: 7, units: 1, modifiers: [] },
        { treatment_class_id: ids.eval, duration: 30, units: 1 },
      ]);
      expect(updated.body.data).toMatchObject({
        id: sheetId,
        patient_id: String(ids.patient),
        billing_rule: "cms_8_minute",
        total_timed_minutes: 40,
        total_units: 4,
        total_supported_units: 4,
        over_billed: false,
        treatments: [
          { code: "97110", duration: 33, units: 2, supported_units: 2, over_billed: false, modifiers: [GP] },
          { code: "97140", duration: 7, units: 1, supported_units: 1, over_billed: false },
          { code: "97161", timed: false, units: 1, supported_units: 1 },
        ],
      });
      // 5. Sign: no co-signature required here, so the note stays INCOMPLETED, signed, with the content hash.
      const afterSign = await signed(created);
      expect(afterSign.status).toBe("INCOMPLETED");
      const [signature] = (await get(`/apis/v1/soap-context/${created.context_id}/signatures`)).body.data.signatures;
      expect(signature).toMatchObject({
        role: "AUTHOR",
        user_id: 101,
        content_hash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
        revoked_at: null,
      });
      // 6. Complete.
      const done = await complete(created.context_id);
      expect(done.body).toMatchObject({
        code: 2000,
        data: {
          status: "COMPLETED",
          completed: true,
          completed_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/),
          submit_for_billing: true,
          billing_status: "SUBMITTED",
          is_soap_note_editable: false,
          plan_of_care_id: expect.any(Number),
        },
      });
      // Effects: the event, the claim, the plan of care, the visit, the PDF.
      const [event] = await rt.rawRows(
        "select data from outbox where event_type = 'soap_note.completed' order by id desc",
      );
      expect(JSON.parse(String(event!.data))).toEqual({
        organisation_id: 1,
        soap_note_id: created.context_id,
        patient_id: ids.patient,
        appointment_id: created.appointment_id,
        service_case_id: ids.caseId,
      });
      const claim = (await get(`/apis/v1/soap-context/${created.context_id}/claim`)).body.data;
      expect(claim).toMatchObject({
        status: "SUBMITTED",
        reference: `claim-${claim.claim_id}`,
        service_date: "2031-08-31",
        diagnosis_codes: ["M54.50", "M54.16"],
        lines: [
          { code: "97110", modifiers: ["GP"], units: 2, minutes: 33 },
          { code: "97140", modifiers: [], units: 1, minutes: 7 },
          { code: "97161", modifiers: [], units: 1, minutes: 30 },
        ],
      });
      const plan = (await get(`/apis/v1/plan-of-care/${done.body.data.plan_of_care_id}`)).body.data;
      expect(plan).toMatchObject({
        service_case_id: ids.caseId,
        source_context_id: created.context_id,
        goals: ["Lift 10 kg without pain", "Sit 60 minutes"],
        frequency_and_duration: "2x/week for 6 weeks",
        certification_start_date: "2031-08-31",
        certification_end_date: "2031-11-28",
        version: 1,
      });
      expect(plan.diagnoses.map((d: { code: string }) => d.code)).toEqual(["M54.50", "M54.16"]);
      expect((await get(`/apis/soap-enrichment/v1/patientCase/${ids.caseId}`)).body.data.visits_used).toBe(1);

      const note = await rendered(created.context_id);
      expect(note.summary_doc_url).toBe(`/apis/v1/soap-context/${created.context_id}/summary.pdf`);
      expect(note.short_summary_url).toBe(`/apis/v1/soap-context/${created.context_id}/short-summary.pdf`);
      const pdf = await rt.call("GET", note.summary_doc_url);
      expect(pdf.status).toBe(200);
      expect(pdf.headers.get("content-type")).toBe("application/pdf");
      expect(pdf.headers.get("cache-control")).toBe("private, no-store");
      const text = pdftotext(new Uint8Array(await pdf.arrayBuffer()), { layout: true });
      for (const expected of [
        "Ada Quill",
        "M54.50",
        "M54.16",
        "97110",
        "97161",
        "33 min, 2 units, modifiers GP",
        "Lift 10 kg without pain",
        "Low back pain after lifting",
        "Signed by Dana Reyes",
        signature.content_hash,
      ])
        expect(text).toContain(expected);
      const short = pdftotext(new Uint8Array(await (await rt.call("GET", note.short_summary_url)).arrayBuffer()), {
        layout: true,
      });
      for (const expected of ["Ada Quill", "M54.50", "97110", "page 1 of 1"]) expect(short).toContain(expected);
      expect(short).not.toContain("Low back pain after lifting");

      // Only callers of the same organisation, with a token, get it.
      expect(
        (await call("GET", note.summary_doc_url, undefined, await rt.token({ organisationId: 2, userId: 201 }))).body
          .code,
      ).toBe(4048);
      expect((await rt.call("GET", note.summary_doc_url, { token: null })).status).toBe(401);

      // The full summary is listed among the patient's documents, and served from the same bytes (no copy).
      const listed = (await get(`/apis/v1/patient/${ids.patient}/documents?category=visit_summary`)).body.data;
      const summary = listed.documents.find(
        (d: { soap_context_id: string }) => d.soap_context_id === created.context_id,
      );
      const fullPdf = new Uint8Array(await (await rt.call("GET", note.summary_doc_url)).arrayBuffer());
      expect(summary).toMatchObject({
        source: "soap_summary",
        media_type: "application/pdf",
        size_bytes: fullPdf.byteLength,
        sha256: createHash("sha256").update(fullPdf).digest("hex"),
        status: "available",
        scan: { result: "not_applicable" },
      });
      const served = await rt.call("GET", `/apis/v1/patient/${ids.patient}/documents/${summary.id}/content`);
      expect(Buffer.from(await served.arrayBuffer()).equals(Buffer.from(fullPdf))).toBe(true);
      expect(await rt.scalar("SELECT storage_key FROM patient_documents WHERE id = ?", summary.id)).toBeNull();
      const removal = await call("DELETE", `/apis/v1/patient/${ids.patient}/documents/${summary.id}`);
      expect(removal.status).toBe(400);
      // A token of another clinic neither lists the note's summary nor reads it; one of the note's clinic does.
      const elsewhere = await rt.token({ clinicIds: [ids.clinic + 1000] });
      const here = await rt.token({ clinicIds: [ids.clinic] });
      const listedFor = async (token: string) =>
        (await get(`/apis/v1/patient/${ids.patient}/documents?category=visit_summary`, token)).body.data.documents.map(
          (d: { id: number }) => d.id,
        );
      expect(await listedFor(elsewhere)).not.toContain(summary.id);
      expect(await listedFor(here)).toContain(summary.id);
      expect((await get(`/apis/v1/patient/${ids.patient}/documents/${summary.id}`, elsewhere)).status).toBe(404);
      expect((await get(`/apis/v1/patient/${ids.patient}/documents/${summary.id}/content`, elsewhere)).status).toBe(
        404,
      );
      const history = (await get(`/apis/v1/soap-context/${created.context_id}/history`)).body.data.history;
      expect(history.map((h: { action: string }) => h.action)).toEqual([
        "CREATE_TREATMENT_SHEET",
        "UPDATE_TREATMENT_SHEET",
        "SIGN",
        "COMPLETE",
      ]);
    });

    it("signs and completes with the spec's three sections alone by default; require_plan_section makes the Plan required", async () => {
      // A client that knows only subjective_, objective_ and assessment_submission_id (spec 2.1).
      const specOnly = async () => {
        const n = await newNote();
        expect(
          (
            await write(n.subjective_submission_id, n.context_id, {
              "response.Subjective.history.chief_complaint": "Knee pain",
            })
          ).status,
        ).toBe(200);
        expect(
          (
            await write(n.objective_submission_id, n.context_id, {
              "response.Objective.rom.knee_flexion": "110 degrees",
            })
          ).status,
        ).toBe(200);
        return n;
      };
      expect((await get("/apis/v1/organisation/settings")).body.data.require_plan_section).toBe(false);
      const n = await specOnly();
      expect((await signed(n)).status).toBe("INCOMPLETED");
      expect((await complete(n.context_id)).body.data).toMatchObject({ status: "COMPLETED", completed: true });

      expect((await settings({ require_plan_section: true })).body.data).toMatchObject({
        require_plan_section: true,
        require_cosign: false,
      });
      const strict = await specOnly();
      const refused = await post(`/apis/v1/soap-context/${strict.context_id}/sign`);
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({
        code: 4099,
        error_code: "NOTE_INCOMPLETE",
        details: { missing_sections: ["Plan"] },
      });
      expect(refused.body.message).toContain("sections not filled: Plan");
      expect((await get(`/apis/v1/soap-context/${strict.context_id}/signatures`)).body.data.signatures).toEqual([]);
      expect(
        (
          await write(strict.plan_submission_id, strict.context_id, {
            "response.Plan.plan.home_program": "Quad sets 3x10",
          })
        ).status,
      ).toBe(200);
      expect((await signed(strict)).status).toBe("INCOMPLETED");
      // Signed under the default, completed after the setting was turned on: completion checks the Plan again.
      await settings({ require_plan_section: false });
      const early = await specOnly();
      await signed(early);
      await settings({ require_plan_section: true });
      expect((await complete(early.context_id)).body).toMatchObject({
        code: 4099,
        details: { missing_sections: ["Plan"] },
      });
      expect((await settings({ require_plan_section: "yes" })).body).toMatchObject({
        code: 4000,
        errors: [{ field: "require_plan_section" }],
      });
      expect((await settings({ require_plan_section: false })).body.data.require_plan_section).toBe(false);
      expect((await complete(early.context_id)).body.data.status).toBe("COMPLETED");
    });

    it("shows completed notes as the v2 patient's medical_records (id, clinic-local date, primary diagnosis, provider), newest first, for a page at once", async () => {
      const patient = async (first_name: string) =>
        (await post("/apis/v1/patient", { first_name, last_name: "Records", date_of_birth: "1960-01-01" })).body.data
          .patient_id as number;
      const [rec, none] = [await patient("Rec"), await patient("None")];
      const noteOf = async (patientId: number, start = DAY + ++slot * HOUR) => {
        const a = await post("/apis/v1/appointment", {
          doctor_id: 101,
          patient_id: patientId,
          clinic_id: ids.clinic,
          appointment_category: [ids.category],
          timestamp: start,
          end_timestamp: start + 1800,
          payment_mode: "SELF_PAY",
        });
        const n = await post("/apis/hep/v2/soap-context", {
          patient_id: patientId,
          type: "FOLLOWUP_SOAP",
          appointment_id: a.body.data.appointment_id,
        });
        expect(n.body.code).toBe(2000);
        return n.body.data;
      };
      const dx = (code: string, description: string, is_primary: boolean | null) => ({
        uuid: `u-${code}`,
        id: 9,
        code,
        description,
        revision: "ICD10",
        billing_type: null,
        is_primary,
      });
      const completed = async (patientId: number, diagnoses: unknown[], start?: number) => {
        const n = await noteOf(patientId, start);
        await fill(n);
        expect(
          (
            await write(n.assessment_submission_id, n.context_id, {
              "response.Assessment.diagnosis.medical_diagnosis": diagnoses,
              "response.Assessment.diagnosis.treating_diagnosis": "M62.81 Muscle weakness",
            })
          ).status,
        ).toBe(200);
        await signed(n);
        expect((await complete(n.context_id)).body.data.status).toBe("COMPLETED");
        return n;
      };
      // 02:00 UTC on 22 August is still 21 August in the clinic's Chicago.
      const first = await completed(
        rec,
        [dx("M54.16", "Radiculopathy, lumbar region", false), dx("M54.50", "Low back pain, unspecified", true)],
        Date.parse("2031-08-22T02:00:00Z") / 1000,
      );
      const second = await completed(rec, [dx("S83.511A", "Sprain of ACL of right knee", null)]);
      await noteOf(rec); // not completed: not a record
      // An addendum completed with its Subjective alone has no diagnosis.
      const addendum = (
        await post("/apis/hep/v2/soap-context", {
          patient_id: rec,
          type: "ADDENDUM",
          parent: second.context_id,
          soap_without_appointment: true,
        })
      ).body.data;
      await write(addendum.subjective_submission_id, addendum.context_id, {
        "response.Subjective.addendum": "Called: better",
      });
      await signed(addendum);
      expect((await complete(addendum.context_id)).body.data.status).toBe("COMPLETED");
      const chicagoDate = (zonelessUtc: string) =>
        new Intl.DateTimeFormat("en-CA", { timeZone: "America/Chicago" }).format(new Date(`${zonelessUtc}Z`));

      const expected = [
        {
          id: second.context_id,
          date: chicagoDate(second.service_date_time),
          diagnosis: "S83.511A Sprain of ACL of right knee",
          provider_id: "101",
        },
        {
          id: first.context_id,
          date: "2031-08-21",
          diagnosis: "M54.50 Low back pain, unspecified",
          provider_id: "101",
        },
        { id: addendum.context_id, date: chicagoDate(addendum.service_date_time), diagnosis: null, provider_id: "101" },
      ];
      // Visits of 2031 come before the addendum written today (its service date is its creation).
      const one = await get(`/v2/patients/${rec}?expand=medical_records&fields=first_name`);
      expect(one.body).toEqual({ id: String(rec), first_name: "Rec", medical_records: expected });
      // The page's records come from one repository read for all its patients (no read per patient).
      const reads = vi.spyOn(rt.runtime.practice.storage.repositories.soapNotes, "completedNotesOf");
      const page = await get(
        "/v2/patients?search=Records&expand=medical_records&fields=first_name&sort=first_name&order=asc",
      );
      expect(reads.mock.calls.map(([, patientIds]) => patientIds)).toEqual([[none, rec]]);
      reads.mockRestore();
      expect(page.body.data).toEqual([
        { id: String(none), first_name: "None", medical_records: [] },
        { id: String(rec), first_name: "Rec", medical_records: expected },
      ]);
      // Clinical notes need the notes' read scope too; another organisation sees none of them.
      const patientsOnly = await rt.token({ scope: "patients:read" });
      const refused = await get(`/v2/patients/${rec}?expand=medical_records`, patientsOnly);
      expect(refused.status).toBe(403);
      expect(refused.body.error).toMatchObject({
        code: "INSUFFICIENT_PERMISSIONS",
        details: { required_scope: "notes:read", current_scopes: ["patients:read"] },
      });
      expect((await get(`/v2/patients/${rec}?expand=appointments`, patientsOnly)).status).toBe(200);
      expect(
        (
          await get(`/v2/patients?expand=medical_records`, await rt.token({ organisationId: 2, userId: 201 }))
        ).body.data.every((p: { medical_records: unknown[] }) => p.medical_records.length === 0),
      ).toBe(true);
    });

    it("checks units against the organisation's billing rule; over-billing blocks signing, naming the line", async () => {
      await settings({ billing_unit_rule: "cms_8_minute", require_cosign: false });
      const n = await newNote();
      await fill(n);
      const lines = [
        { treatment_class_id: ids.ex, duration: 7, units: 1 },
        { treatment_class_id: ids.manual, duration: 7, units: 1 },
      ];
      const made = await sheet(n, lines);
      // 14 timed minutes support one unit under CMS: the first of the tied lines gets it.
      expect(made.body.data.treatments.map((t: { supported_units: number }) => t.supported_units)).toEqual([1, 0]);
      expect(made.body.data.over_billed).toBe(true);
      const refused = await post(`/apis/v1/soap-context/${n.context_id}/sign`);
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({
        code: 4099,
        details: {
          over_billed_lines: [{ line: 1, code: "97140", units: 1, supported_units: 0 }],
          missing_sections: [],
        },
      });
      expect(refused.body.message).toContain("97140 (1 billed, 0 supported)");
      expect((await get(`/apis/v1/soap-context/${n.context_id}/signatures`)).body.data.signatures).toEqual([]);
      await settings({ billing_unit_rule: "per_code_midpoint" });
      expect(
        (await get(`/apis/v1/treatment-sheet/${made.body.data.id}`)).body.data.treatments.map(
          (t: { supported_units: number }) => t.supported_units,
        ),
      ).toEqual([0, 0]);
      await settings({ billing_unit_rule: "none" });
      expect((await get(`/apis/v1/treatment-sheet/${made.body.data.id}`)).body.data).toMatchObject({
        billing_rule: "none",
        over_billed: false,
      });
      expect((await signed(n)).status).toBe("INCOMPLETED");
      await settings({ billing_unit_rule: "cms_8_minute" });
      // The rule changed after signing: completion checks again.
      const blocked = await complete(n.context_id);
      expect(blocked.body).toMatchObject({
        code: 4099,
        details: { over_billed_lines: [expect.objectContaining({ code: "97140" })] },
      });
      expect((await settings({ billing_unit_rule: "per_visit" })).body).toMatchObject({ code: 4000 });
    });

    it("refuses bad sheets naming the line and field, and writes nothing; one sheet per note, also under concurrency", async () => {
      const n = await newNote();
      const before = [await count("treatment_sheets"), await count("soap_note_history")];
      const bad = await sheet(n, [
        { treatment_class_id: 999_999, duration: 10, units: 1 },
        { treatment_class_id: ids.manual, duration: 10, units: 1, modifiers: [{ cpt_modifier_id: 2 }] },
        {
          treatment_class_id: ids.ex,
          duration: 10,
          units: 1,
          modifiers: [{ cpt_modifier_id: 1, cpt_modifier_code: "59" }],
        },
        { treatment_class_id: ids.ex, duration: 5, units: 0 },
      ]);
      expect(bad.status).toBe(400);
      expect(bad.body.errors.map((e: { field: string }) => e.field)).toEqual([
        "treatments.0.treatment_class_id",
        "treatments.1.modifiers.0.cpt_modifier_id",
        "treatments.2.modifiers.0.cpt_modifier_code",
        "treatments.3.treatment_class_id",
      ]);
      const shape = await sheet(n, [{ treatment_class_id: ids.ex, duration: -1, units: 1 }]);
      expect(shape.status).toBe(400);
      expect(shape.body.errors).toEqual([expect.objectContaining({ field: "treatments.0.duration" })]);
      expect(
        (await post("/apis/v1/treatment-sheet", { patient_id: "12x", soap_context_id: n.context_id, treatments: [] }))
          .status,
      ).toBe(400);
      expect(
        (
          await post("/apis/v1/treatment-sheet", {
            patient_id: String(ids.patient + 1000),
            soap_context_id: n.context_id,
            treatments: [],
          })
        ).body.errors[0].field,
      ).toBe("patient_id");
      expect(
        (
          await post("/apis/v1/treatment-sheet", {
            patient_id: String(ids.patient),
            soap_context_id: "nope",
            treatments: [],
          })
        ).body.code,
      ).toBe(4048);
      expect([await count("treatment_sheets"), await count("soap_note_history")]).toEqual(before);

      const results = await Promise.all(
        Array.from({ length: 5 }, () => sheet(n, [{ treatment_class_id: ids.ex, duration: 15, units: 1 }])),
      );
      expect(results.filter((r) => r.body.code === 2000)).toHaveLength(1);
      const conflicts = results.filter((r) => r.status === 409);
      expect(conflicts).toHaveLength(4);
      expect(conflicts[0]!.body).toMatchObject({
        code: 4098,
        details: { treatment_sheet_id: results.find((r) => r.body.code === 2000)!.body.data.id },
      });
      expect((await post("/apis/v1/treatment-sheet/999999", [])).body.code).toBe(4052);
    });

    it("co-signature: sign, frozen while awaiting it, return for revision, sign again, co-sign, stale content, complete; the history tells it", async () => {
      await settings({ require_cosign: true, billing_unit_rule: "cms_8_minute", auto_submit_billing: false });
      const n = await newNote();
      const empty = await post(`/apis/v1/soap-context/${n.context_id}/sign`);
      expect(empty.body).toMatchObject({ code: 4099, details: { missing_sections: ["Subjective", "Objective"] } });
      await fill(n);
      expect((await post(`/apis/v1/soap-context/${n.context_id}/sign`, undefined, supervisor)).body).toMatchObject({
        code: 4031,
        details: { required_user_id: 101, user_id: 103 },
      });
      expect((await signed(n)).status).toBe("COSIGN");
      // Frozen for review: no writes, no completion.
      expect(
        (await write(n.subjective_submission_id, n.context_id, { "response.Subjective.history.note": "late edit" }))
          .body,
      ).toMatchObject({
        code: 4092,
        details: { current_status: "COSIGN", allowed_actions: ["COSIGN", "RETURN_FOR_REVISION"] },
      });
      expect((await sheet(n, [])).body.code).toBe(4092);
      expect((await complete(n.context_id)).body).toMatchObject({
        code: 4092,
        details: { current_status: "COSIGN", action: "COMPLETE" },
      });
      expect((await post(`/apis/v1/soap-context/${n.context_id}/return`, { reason: "x" })).body.code).toBe(4031);
      expect((await post(`/apis/v1/soap-context/${n.context_id}/return`, {}, supervisor)).status).toBe(400);
      const returned = await post(
        `/apis/v1/soap-context/${n.context_id}/return`,
        { reason: "Add the objective strength tests" },
        supervisor,
      );
      expect(returned.body.data).toMatchObject({ status: "REVISION", is_soap_note_editable: true });
      const revoked = (await get(`/apis/v1/soap-context/${n.context_id}/signatures`)).body.data.signatures;
      expect(revoked).toEqual([
        expect.objectContaining({
          role: "AUTHOR",
          revoked_reason: "returned for revision: Add the objective strength tests",
          revoked_at: expect.any(String),
        }),
      ]);
      expect((await complete(n.context_id)).body).toMatchObject({
        code: 4092,
        details: { current_status: "REVISION", allowed_actions: ["SIGN"] },
      });
      expect(
        (await write(n.objective_submission_id, n.context_id, { "response.Objective.strength.hip_abduction": "4/5" }))
          .status,
      ).toBe(200);
      expect((await signed(n)).status).toBe("COSIGN");
      expect((await post(`/apis/v1/soap-context/${n.context_id}/cosign`)).body.code).toBe(4031);
      const cosigned = await post(`/apis/v1/soap-context/${n.context_id}/cosign`, undefined, supervisor);
      expect(cosigned.body.data.status).toBe("INCOMPLETED");
      // An edit after co-signature makes both signatures stale: completion refuses until signed again.
      expect(
        (await write(n.plan_submission_id, n.context_id, { "response.Plan.plan.home_program": "Bridges 3x12" })).status,
      ).toBe(200);
      const stale = await complete(n.context_id);
      expect(stale.body).toMatchObject({ code: 4099, details: { stale_signatures: ["AUTHOR", "COSIGNER"] } });
      expect((await signed(n)).status).toBe("COSIGN");
      expect((await post(`/apis/v1/soap-context/${n.context_id}/cosign`, undefined, supervisor)).body.data.status).toBe(
        "INCOMPLETED",
      );
      const done = await complete(n.context_id);
      expect(done.body.data).toMatchObject({
        status: "COMPLETED",
        submit_for_billing: false,
        billing_status: "NOT_SUBMITTED",
        plan_of_care_id: null,
      });
      expect((await get(`/apis/v1/soap-context/${n.context_id}/claim`)).body.code).toBe(4055);
      const history = (await get(`/apis/v1/soap-context/${n.context_id}/history`)).body.data.history;
      expect(history.map((h: { action: string; to_status: string }) => `${h.action}>${h.to_status}`)).toEqual([
        "SIGN>COSIGN",
        "RETURN_FOR_REVISION>REVISION",
        "SIGN>COSIGN",
        "COSIGN>INCOMPLETED",
        "SIGN>COSIGN",
        "COSIGN>INCOMPLETED",
        "COMPLETE>COMPLETED",
      ]);
      expect(history[1]).toMatchObject({ actor_user_id: 103, details: { reason: "Add the objective strength tests" } });
      const all = (await get(`/apis/v1/soap-context/${n.context_id}/signatures`)).body.data.signatures;
      expect(
        all.filter((s: { revoked_at: unknown }) => s.revoked_at === null).map((s: { role: string }) => s.role),
      ).toEqual(["AUTHOR", "COSIGNER"]);
      await settings({ require_cosign: false });
    });

    it("locks a COMPLETED note: forms, sheet, signatures and completion are refused and change nothing; an ADDENDUM leaves it intact", async () => {
      const n = await newNote();
      await fill(n);
      const made = await sheet(n, [{ treatment_class_id: ids.ex, duration: 15, units: 1 }]);
      await signed(n);
      expect((await complete(n.context_id)).body.data.status).toBe("COMPLETED");
      // Rendered first: the summary job writes its own rows (the visit summary's document and event).
      await rendered(n.context_id);
      const before = (await get(`/apis/v1/soap-context/${n.context_id}`)).body.data;
      const counts = async () => [
        await count("soap_signatures"),
        await count("soap_note_history"),
        await count("outbox"),
        await count("jobs"),
      ];
      const countsBefore = await counts();
      const refusals = [
        await write(n.subjective_submission_id, n.context_id, { "response.Subjective.history.note": "after the fact" }),
        await post(`/apis/v1/treatment-sheet/${made.body.data.id}`, [
          { treatment_class_id: ids.ex, duration: 30, units: 2 },
        ]),
        await post(`/apis/v1/soap-context/${n.context_id}/sign`),
        await post(`/apis/v1/soap-context/${n.context_id}/cosign`, undefined, supervisor),
        await post(`/apis/v1/soap-context/${n.context_id}/return`, { reason: "no" }, supervisor),
        await complete(n.context_id),
      ];
      for (const r of refusals)
        expect(r.body).toMatchObject({ code: 4092, details: { current_status: "COMPLETED", allowed_actions: [] } });
      expect(await counts()).toEqual(countsBefore);
      const addendum = await post("/apis/hep/v2/soap-context", {
        patient_id: ids.patient,
        type: "ADDENDUM",
        parent: n.context_id,
        soap_without_appointment: true,
      });
      expect(addendum.body.data).toMatchObject({ type: "ADDENDUM", parent: n.context_id, status: "INCOMPLETED" });
      await write(addendum.body.data.subjective_submission_id, addendum.body.data.context_id, {
        "response.Subjective.addendum": "Patient called: pain eased",
      });
      await signed(addendum.body.data);
      expect((await complete(addendum.body.data.context_id)).body.data.status).toBe("COMPLETED");
      const after = (await get(`/apis/v1/soap-context/${n.context_id}`)).body.data;
      // The summary job may have run in between (summary links and status); everything else is as it was.
      const unrendered = { summary_doc_url: null, short_summary_url: null, summary_status: null, updated_at: null };
      expect({ ...after, ...unrendered }).toEqual({ ...before, ...unrendered });
    });

    it("completion: the body must say completed true and COMPLETED; of 5 simultaneous completions one wins, with one event", async () => {
      const n = await newNote();
      await fill(n);
      await signed(n);
      for (const body of [
        { completed: false, status: "COMPLETED" },
        { completed: true, status: "INCOMPLETED" },
        { completed: true, status: "COMPLETED", completed_at: "2031-01-01T00:00:00" },
        { status: "COMPLETED" },
      ]) {
        const r = await post(`/apis/v1/soap-context/${n.context_id}`, body);
        expect(r.status).toBe(400);
      }
      const events = async () =>
        Number(await rt.scalar("select count(*) from outbox where event_type = 'soap_note.completed'"));
      const eventsBefore = await events();
      const results = await Promise.all(Array.from({ length: 5 }, () => complete(n.context_id)));
      expect(results.filter((r) => r.body.code === 2000)).toHaveLength(1);
      expect(results.filter((r) => r.body.code === 4092)).toHaveLength(4);
      expect(await events()).toBe(eventsBefore + 1);
      expect(
        Number(
          await rt.scalar(
            "select count(*) from jobs where queue = 'soap.render-summary' and payload like ?",
            `%${n.context_id}%`,
          ),
        ),
      ).toBe(1);
      expect((await get("/apis/v1/soap-context/nope/summary.pdf")).body.code).toBe(4048);
    });

    it("a form answer 2,500 levels deep is 400 VALIDATION_FAILED and changes nothing; the form stays at its version", async () => {
      const n = await newNote();
      const before = (await get(`/apis/v1/form-data/${n.subjective_submission_id}`)).body.data;
      const deep = "[".repeat(2500) + '"x"' + "]".repeat(2500);
      const res = await rt.call("POST", "/apis/v1/form-data/partial", {
        body: `{"submissionId":"${n.subjective_submission_id}","soapContextId":"${n.context_id}","partialResponse":{"response.Subjective.deep":${deep}},"version":${before.version + 1}}`,
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        code: 4000,
        error_code: "VALIDATION_FAILED",
        errors: [{ field: "(body)" }],
      });
      expect((await get(`/apis/v1/form-data/${n.subjective_submission_id}`)).body.data).toEqual(before);
    });

    it("a summary that cannot be rendered ends FAILED with its reason on the note and the PDF endpoint; re-rendering renders it", async () => {
      const n = await newNote();
      await fill(n);
      // Content stored before the depth limit (or by an embedder): 2,000 nested lists overflow the summary's renderer.
      const deep = `{"Subjective":{"history":{"chief_complaint":"Neck pain"},"deep":${"[".repeat(2000)}"x"${"]".repeat(2000)}}}`;
      const storeForm = async (response: string) => {
        const notes = rt.runtime.practice.storage.repositories.soapNotes;
        const form = (await notes.findForm(1, n.subjective_submission_id))!;
        expect(
          await notes.updateForm({
            ...form,
            response: JSON.parse(response),
            version: form.version + 1,
            updatedAt: new Date(),
          }),
        ).toBe(true);
      };
      await storeForm(deep);
      await signed(n);
      expect((await complete(n.context_id)).body.data.summary_status).toBe("PENDING");
      let note: any;
      for (let i = 0; i < 200 && note?.summary_status !== "FAILED"; i++) {
        await new Promise((r) => setTimeout(r, 50));
        note = (await get(`/apis/v1/soap-context/${n.context_id}`)).body.data;
      }
      expect(note).toMatchObject({
        status: "COMPLETED",
        summary_status: "FAILED",
        summary_failure: "RangeError: Maximum call stack size exceeded",
        summary_doc_url: null,
      });
      // One attempt: the job failed for good at once instead of retrying a render that fails every time. The runner
      // records the job's end after the handler returns, so just after the note's own commit: polled, not read once.
      const summaryJob = async () => {
        const [job] = await rt.rawRows(
          "select status, attempts, last_error from jobs where queue = 'soap.render-summary' and payload like ?",
          `%${n.context_id}%`,
        );
        return { status: job!.status, attempts: Number(job!.attempts), last_error: job!.last_error };
      };
      await expect
        .poll(summaryJob)
        .toEqual({ status: "failed", attempts: 1, last_error: "RangeError: Maximum call stack size exceeded" });
      const pdf = await get(`/apis/v1/soap-context/${n.context_id}/summary.pdf`);
      expect(pdf.status).toBe(404);
      expect(pdf.body).toMatchObject({
        code: 4053,
        error_code: "DOCUMENT_NOT_FOUND",
        message: expect.stringContaining("could not be rendered: RangeError: Maximum call stack size exceeded"),
        details: { summary_status: "FAILED", summary_failure: "RangeError: Maximum call stack size exceeded" },
      });

      // The cause fixed (the content repaired), a re-render renders it; the history tells both.
      await storeForm('{"Subjective":{"history":{"chief_complaint":"Neck pain"}}}');
      const again = await post(`/apis/v1/soap-context/${n.context_id}/summary/render`);
      expect(again.body).toMatchObject({ code: 2000, data: { summary_status: "PENDING", summary_failure: null } });
      const rerendered = await rendered(n.context_id);
      expect(rerendered).toMatchObject({ summary_status: "READY", summary_failure: null });
      expect((await rt.call("GET", rerendered.summary_doc_url)).status).toBe(200);
      const history = (await get(`/apis/v1/soap-context/${n.context_id}/history`)).body.data.history;
      expect(history.map((h: { action: string }) => h.action).slice(-3)).toEqual([
        "COMPLETE",
        "SUMMARY_FAILED",
        "RERENDER_SUMMARY",
      ]);

      // Only a COMPLETED note's summary can be rendered again.
      const open = await newNote();
      const refused = await post(`/apis/v1/soap-context/${open.context_id}/summary/render`);
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({
        error_code: "INVALID_TRANSITION",
        details: { current_status: "INCOMPLETED", summary_status: null },
      });
    });
  });
}
