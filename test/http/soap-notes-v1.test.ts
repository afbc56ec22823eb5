import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines } from "../support/engines.js";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";

const DAY = Math.floor(Date.parse("2031-09-01T00:00:00Z") / 1000);
const HOUR = 3600;

// SOAP note creation, reads and form data over HTTP, on every engine this run has.
for (const engine of availableEngines()) {
  describe(`[${engine}] v1 SOAP notes over HTTP`, () => {
    let rt: TestRuntime;
    const ids = {
      clinic: 0,
      clinic2: 0,
      patient: 0,
      other: 0,
      foreign: 0,
      category: 0,
      appointment: 0,
      cancelled: 0,
      caseId: "",
      other_appointment: 0,
    };
    const post = async (path: string, body?: unknown, token?: string) => {
      const res = await rt.call("POST", path, { ...(body === undefined ? {} : { body }), ...(token ? { token } : {}) });
      return { status: res.status, body: await res.json() };
    };
    const get = async (path: string, token?: string) => {
      const res = await rt.call("GET", path, token ? { token } : {});
      return { status: res.status, body: await res.json() };
    };
    const count = async (table: string) => Number(await rt.scalar(`select count(*) from ${table}`));
    const note = (over: Record<string, unknown> = {}) =>
      post("/apis/hep/v2/soap-context", {
        patient_id: ids.patient,
        type: "FOLLOWUP_SOAP",
        appointment_id: ids.appointment,
        ...over,
      });
    let slot = 0;
    const appointment = async (over: Record<string, unknown> = {}) => {
      slot += 1;
      const res = await post("/apis/v1/appointment", {
        doctor_id: 101,
        patient_id: ids.patient,
        clinic_id: ids.clinic,
        appointment_category: [ids.category],
        timestamp: DAY + slot * HOUR,
        end_timestamp: DAY + slot * HOUR + 1800,
        payment_mode: "SELF_PAY",
        ...over,
      });
      expect(res.body.code).toBe(2000);
      return res.body.data;
    };

    beforeAll(async () => {
      rt = await startTestRuntime({ OPENPRACTICE_PLAN_LIMITS: '{"free":100000}' }, { engine });
      const r = rt.runtime.practice.storage.repositories;
      const now = new Date();
      await r.organisations.ensure({ id: 1, name: "Org one", plan: "free", now });
      ids.clinic = (
        await r.organisations.ensureClinic({ organisationId: 1, name: "Main", timeZone: "America/Chicago" })
      ).id;
      ids.clinic2 = (
        await r.organisations.ensureClinic({ organisationId: 1, name: "Second", timeZone: "America/Chicago" })
      ).id;
      await r.organisations.upsertProvider({
        organisationId: 1,
        userId: 101,
        firstName: "Dana",
        lastName: "Reyes",
        npi: null,
        supervisingUserId: 103,
        clinicIds: [ids.clinic, ids.clinic2],
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
      await r.catalog.ensureCancellationReason({
        organisationId: 1,
        reasonKey: "ILL",
        reasonLabel: "Ill",
        cancellationFee: 0,
        status: "ACTIVE",
      });
      await r.catalog.enableSpecialization(1, "MSK");
      const patient = async (first_name: string, token?: string) =>
        (await post("/apis/v1/patient", { first_name, last_name: "Soap", date_of_birth: "1970-07-07" }, token)).body
          .data.patient_id as number;
      ids.patient = await patient("Ada");
      ids.other = await patient("Bob");
      ids.foreign = await patient("Foreign", await rt.token({ organisationId: 2, userId: 201 }));
      const c = await post("/apis/soap-enrichment/v1/patientCase", {
        patient_id: ids.patient,
        case_title: "Low back pain",
        specialization: "MSK",
        icd_codes: [{ id: 31, code: "M54.50", description: "Low back pain, unspecified", revision: "ICD10" }],
        treating_icd_codes: [
          { id: 32, code: "M54.16", description: "Radiculopathy, lumbar region", revision: "ICD10" },
        ],
      });
      ids.caseId = c.body.data.service_case_id;
      ids.appointment = (await appointment({ service_case_id: ids.caseId })).appointment_id;
      ids.cancelled = (await appointment()).appointment_id;
      await post(`/apis/v1/appointment/appointment-cancel/${ids.cancelled}`, {
        cancellation_reason_key: "ILL",
        cancellation_reason_label: "Ill",
      });
    });
    afterAll(async () => {
      await rt.stop();
    });

    it("creates a note with every spec 2.1 field and its creation values; the case, clinic and supervisor are resolved; emits soap_note.created", async () => {
      const { status, body } = await note();
      expect(status).toBe(200);
      expect(body).toMatchObject({ code: 2000, message: "Success" });
      const n = body.data;
      const zoneless = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
      expect(n).toEqual({
        context_id: expect.any(String),
        patient_id: ids.patient,
        organisation_id: 1,
        clinic_id: ids.clinic,
        service_case_id: ids.caseId,
        case_title: "Low back pain",
        appointment_id: ids.appointment,
        type: "FOLLOWUP_SOAP",
        category: "MSK",
        service_date_time: "2031-09-01T01:00:00",
        entry_date_time: zoneless,
        status: "INCOMPLETED",
        completed: false,
        completed_at: null,
        rendering_physician: 101,
        supervising_physician: 103,
        subjective_submission_id: expect.stringMatching(/^sub_/),
        objective_submission_id: expect.stringMatching(/^sub_/),
        assessment_submission_id: expect.stringMatching(/^sub_/),
        plan_submission_id: expect.stringMatching(/^sub_/),
        treatment_sheet_id: 0,
        plan_of_care_id: null,
        submit_for_billing: false,
        summary_doc_url: null,
        short_summary_url: null,
        summary_status: null,
        summary_failure: null,
        is_soap_note_editable: true,
        billing_status: null,
        soap_without_appointment: false,
        parent: null,
        data_carry_forward_from: null,
        created_at: zoneless,
        updated_at: zoneless,
      });
      expect((await get(`/apis/v1/soap-context/${n.context_id}`)).body.data).toEqual(n);
      const [event] = await rt.rawRows(
        "select data from outbox where event_type = 'soap_note.created' order by id desc",
      );
      expect(JSON.parse(String(event?.data))).toEqual({
        organisation_id: 1,
        soap_note_id: n.context_id,
        patient_id: ids.patient,
        appointment_id: ids.appointment,
        service_case_id: ids.caseId,
      });
      // The case's codes are already in the Assessment (spec 4.1: no call needed).
      const assessment = (await get(`/apis/v1/form-data/${n.assessment_submission_id}`)).body.data;
      expect(assessment).toMatchObject({
        submission_id: n.assessment_submission_id,
        soap_context_id: n.context_id,
        section: "Assessment",
        version: 1,
      });
      expect(assessment.response.Assessment.diagnosis).toEqual({
        medical_diagnosis: [
          {
            uuid: expect.any(String),
            id: 31,
            code: "M54.50",
            description: "Low back pain, unspecified",
            revision: "ICD10",
            billing_type: null,
            is_primary: true,
          },
        ],
        treating_diagnosis: "M54.16 Radiculopathy, lumbar region",
        problem_list: [],
      });
    });

    it("stores the subType's type: RE_EVALUATION is INITIAL_SOAP, simpleDischargeNote is DISCHARGE_NOTE", async () => {
      expect((await note({ type: "FOLLOWUP_SOAP", attributes: { subType: "RE_EVALUATION" } })).body.data.type).toBe(
        "INITIAL_SOAP",
      );
      expect(
        (await note({ type: "FOLLOWUP_SOAP", attributes: { subType: "simpleDischargeNote" } })).body.data.type,
      ).toBe("DISCHARGE_NOTE");
    });

    it("answers errors with HTTP 200 and a non-2000 code, naming the field, and writes nothing", async () => {
      const before = [await count("soap_notes"), await count("form_submissions"), await count("outbox")];
      const cases: Array<[Record<string, unknown>, number, string?]> = [
        [{ appointment_id: 987654 }, 4004],
        [{ appointment_id: ids.cancelled }, 4001],
        [{ clinic_id: ids.clinic }, 4000, "clinic_id"],
        [{ organisation_id: 1 }, 4000, "organisation_id"],
        [{ type: "PROGRESS" }, 4000, "type"],
        [{ appointment_id: 0 }, 4000, "appointment_id"],
        [{ appointment_id: 0, soap_without_appointment: false }, 4000, "appointment_id"],
        [{ type: "ADDENDUM" }, 4000, "parent"],
        [{ attributes: { subType: "WEIRD" } }, 4000, "attributes.subType"],
        [{ patient_id: ids.foreign, appointment_id: 0, soap_without_appointment: true }, 4040],
        [{ patient_id: ids.other }, 4000, "appointment_id"],
        [{ service_case_id: "SERVICE_CASE_999999" }, 4043],
        [{ data_carry_forward_from: "no-such-note" }, 4000, "data_carry_forward_from"],
      ];
      for (const [over, code, field] of cases) {
        const { status, body } = await note(over);
        expect(status, JSON.stringify(over)).toBe(200);
        expect(body.code, JSON.stringify(over)).toBe(code);
        expect(body.data).toBeNull();
        if (field)
          expect(
            body.errors.map((e: { field: string }) => e.field),
            JSON.stringify(over),
          ).toContain(field);
      }
      const clinic = await note({ clinic_id: 1 });
      expect(clinic.body.errors).toEqual([
        expect.objectContaining({ field: "clinic_id", reason: expect.stringContaining("must not be sent") }),
      ]);
      const notAProvider = await post(
        "/apis/hep/v2/soap-context",
        { patient_id: ids.patient, type: "FOLLOWUP_SOAP", appointment_id: ids.appointment },
        await rt.token({ userId: 999 }),
      );
      expect(notAProvider.body).toMatchObject({ code: 4000, errors: [{ field: "rendering_physician" }] });
      expect([await count("soap_notes"), await count("form_submissions"), await count("outbox")]).toEqual(before);
      // Authentication is not a client-data error: it keeps its 401.
      expect((await rt.call("POST", "/apis/hep/v2/soap-context", { body: {}, token: null })).status).toBe(401);
    });

    it("makes appointment-free notes, addenda of COMPLETED notes only, and carries form data forward", async () => {
      const free = (await note({ appointment_id: 0, soap_without_appointment: true })).body.data;
      expect(free).toMatchObject({
        appointment_id: null,
        soap_without_appointment: true,
        service_case_id: null,
        clinic_id: ids.clinic,
      });
      const notCompleted = await note({ type: "ADDENDUM", parent: free.context_id });
      expect(notCompleted.body).toMatchObject({
        code: 4000,
        errors: [{ field: "parent", reason: "must be the context_id of a COMPLETED note of the same patient" }],
      });
      // Completion lands with signing: store a COMPLETED copy through the repositories to exercise the addendum rule.
      const notes = rt.runtime.practice.storage.repositories.soapNotes;
      const { id: _id, ...stored } = (await notes.findByContextId(1, free.context_id))!;
      const done = await notes.insert({
        ...stored,
        contextId: `done-${Date.now()}`,
        submissionIds: { ...stored.submissionIds, Subjective: `sub_done_${Date.now()}` },
        status: "COMPLETED",
        completed: true,
        completedAt: new Date(),
      });
      await notes.insertForms([
        {
          id: done.submissionIds.Subjective,
          organisationId: 1,
          contextId: done.contextId,
          section: "Subjective",
          version: 1,
          response: {},
          updatedAt: new Date(),
        },
      ]);
      const addendum = (
        await note({ type: "ADDENDUM", parent: done.contextId, appointment_id: 0, soap_without_appointment: true })
      ).body.data;
      expect(addendum).toMatchObject({ type: "ADDENDUM", parent: done.contextId });
      // Locked after completion: its forms refuse writes.
      const locked = await post("/apis/v1/form-data/partial", {
        submissionId: done.submissionIds.Subjective,
        soapContextId: done.contextId,
        partialResponse: { "response.Subjective.pain": 3 },
        version: 2,
      });
      expect(locked.status).toBe(409);
      expect(locked.body).toMatchObject({ error_code: "INVALID_TRANSITION", details: { current_status: "COMPLETED" } });

      const source = (await note()).body.data;
      await post("/apis/v1/form-data/partial", {
        submissionId: source.subjective_submission_id,
        soapContextId: source.context_id,
        partialResponse: { "response.Subjective.chief_complaint": "back pain after lifting" },
        version: 2,
      });
      const carried = (await note({ data_carry_forward_from: source.context_id })).body.data;
      expect(carried.data_carry_forward_from).toBe(source.context_id);
      const subjective = (await get(`/apis/v1/form-data/${carried.subjective_submission_id}`)).body.data;
      expect(subjective).toMatchObject({
        version: 1,
        response: { Subjective: { chief_complaint: "back pain after lifting" } },
      });
      const otherPatients = (
        await post("/apis/hep/v2/soap-context", {
          patient_id: ids.other,
          type: "FOLLOWUP_SOAP",
          appointment_id: 0,
          soap_without_appointment: true,
          data_carry_forward_from: source.context_id,
        })
      ).body;
      expect(otherPatients).toMatchObject({ code: 4000, errors: [{ field: "data_carry_forward_from" }] });
    });

    it("writes form data only at the current version plus 1; validates diagnosis entries; two concurrent writers: exactly one wins", async () => {
      const n = (await note()).body.data;
      const write = (
        version: number,
        partialResponse: Record<string, unknown>,
        submissionId = n.assessment_submission_id,
      ) => post("/apis/v1/form-data/partial", { submissionId, soapContextId: n.context_id, partialResponse, version });
      const entry = {
        uuid: "u-1",
        id: 40,
        code: "M54.16",
        description: "Radiculopathy, lumbar region",
        revision: "ICD10",
        billing_type: "BILLABLE",
        is_primary: true,
      };
      const ok = await write(2, {
        "response.Assessment.diagnosis.medical_diagnosis": [entry],
        "response.Assessment.diagnosis.problem_list": ["stairs"],
      });
      expect(ok.status).toBe(200);
      expect(ok.body.data).toMatchObject({
        version: 2,
        response: {
          Assessment: {
            diagnosis: {
              medical_diagnosis: [entry],
              problem_list: ["stairs"],
              treating_diagnosis: "M54.16 Radiculopathy, lumbar region",
            },
          },
        },
      });
      const stale = await write(2, { "response.Assessment.diagnosis.problem_list": [] });
      expect(stale.status).toBe(409);
      expect(stale.body).toMatchObject({
        code: 4097,
        error_code: "VERSION_CONFLICT",
        details: { current_version: 2, expected_version: 3, sent_version: 2 },
      });
      expect((await write(5, { "response.x": 1 })).body.error_code).toBe("VERSION_CONFLICT");
      const bad = await write(3, {
        "response.Assessment.diagnosis.medical_diagnosis": [{ ...entry, id: 0, revision: "ICD9" }],
      });
      expect(bad.status).toBe(400);
      expect(bad.body.errors.map((e: { field: string }) => e.field)).toEqual([
        "partialResponse.response.Assessment.diagnosis.medical_diagnosis.0.id",
        "partialResponse.response.Assessment.diagnosis.medical_diagnosis.0.revision",
      ]);
      expect((await write(3, { "plan.x": 1 })).body.errors[0].field).toBe("partialResponse.plan.x");
      expect((await write(3, { "response.__proto__.x": 1 })).status).toBe(400);
      expect((await get(`/apis/v1/form-data/${n.assessment_submission_id}`)).body.data.version).toBe(2);

      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          write(3, { "response.Assessment.diagnosis.problem_list": [`writer ${i}`] }),
        ),
      );
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      expect(results.filter((r) => r.status === 409)).toHaveLength(5);
      const final = (await get(`/apis/v1/form-data/${n.assessment_submission_id}`)).body.data;
      expect(final.version).toBe(3);
      expect(final.response.Assessment.diagnosis.problem_list).toEqual(
        results.find((r) => r.status === 200)!.body.data.response.Assessment.diagnosis.problem_list,
      );
      expect((await get("/apis/v1/form-data/sub_nope")).status).toBe(404);
      expect(
        (
          await get(
            `/apis/v1/form-data/${n.assessment_submission_id}`,
            await rt.token({ organisationId: 2, userId: 201 }),
          )
        ).status,
      ).toBe(404);
    });

    it("lists a patient's notes by service date and searches by clinic, appointment, case, dates, status and completed", async () => {
      const later = await appointment({
        clinic_id: ids.clinic2,
        timestamp: DAY + 300 * HOUR,
        end_timestamp: DAY + 300 * HOUR + 1800,
      });
      const latest = (await note({ appointment_id: later.appointment_id })).body.data;
      const listed = (await get(`/apis/v1/soap-context?patient_id=${ids.patient}&size=2`)).body.data;
      expect(listed.notes[0].context_id).toBe(latest.context_id);
      expect(listed.pagination).toMatchObject({ page: 1, size: 2, has_next: true });
      const total = listed.pagination.total_count;
      expect(total).toBe(Number(await rt.scalar(`select count(*) from soap_notes where patient_id = ${ids.patient}`)));
      const search = async (q: string) => (await get(`/apis/v1/soap-context/search?${q}`)).body.data;
      expect((await search(`clinic_id=${ids.clinic2}`)).notes.map((x: { context_id: string }) => x.context_id)).toEqual(
        [latest.context_id],
      );
      expect((await search(`appointment_id=${later.appointment_id}`)).pagination.total_count).toBe(1);
      expect(
        (await search(`service_case_id=${ids.caseId}&patient_id=${ids.patient}`)).notes.every(
          (x: { service_case_id: string }) => x.service_case_id === ids.caseId,
        ),
      ).toBe(true);
      expect((await search(`from=${DAY + 299 * HOUR}&to=${DAY + 301 * HOUR}`)).pagination.total_count).toBe(1);
      expect((await search("status=completed")).notes.every((x: { status: string }) => x.status === "COMPLETED")).toBe(
        true,
      );
      expect((await search("completed=true")).pagination.total_count).toBe(
        (await search("status=COMPLETED")).pagination.total_count,
      );
      expect((await get("/apis/v1/soap-context/search?status=DRAFT")).body).toMatchObject({
        code: 4000,
        error_code: "INVALID_PARAMETER",
        details: { parameter: "status" },
      });
      expect((await get("/apis/v1/soap-context")).body).toMatchObject({
        error_code: "INVALID_PARAMETER",
        details: { parameter: "patient_id" },
      });
      expect(
        (await get(`/apis/v1/soap-context/${latest.context_id}`, await rt.token({ organisationId: 2, userId: 201 })))
          .body,
      ).toMatchObject({ code: 4048 });
    });
  });
}
