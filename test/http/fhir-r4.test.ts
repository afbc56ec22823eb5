import { Client } from "fhir-kit-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines } from "../support/engines.js";
import { multipartBody } from "../support/multipart.js";
import { fhirProblems } from "../support/fhir-validation.js";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";
import { US_CORE_MUST_SUPPORT, mustSupportGaps } from "../support/us-core-must-support.js";

// Issue 51, part 1: the FHIR R4 facade over the same records, read and searched over HTTP on every engine. Every
// resource received is validated by @medplum/core against R4 (and US Core Patient), and checked against a list of
// US Core must-support elements; searches match the v2 records one for one; errors are OperationOutcomes.

type Json = any;
const NPI = "1234567893"; // a valid check digit (Luhn over 80840 + the number)
const CLINIC_NPI = "1245319599";

/** A well-formed value of a search parameter, to ask each one the CapabilityStatement lists. */
function sampleValue(resourceType: string, name: string, type: string): string {
  if (name === "gender") return "unknown";
  if (name === "status") return resourceType === "Encounter" ? "finished" : resourceType === "Slot" ? "free" : "booked";
  if (name === "active") return "true";
  if (name === "start") return "ge2031-03-04";
  if (name === "service-type") return "urn:openpractice:sid:appointment-type-id|1";
  if (name === "category" && resourceType === "DocumentReference") return "clinical-note";
  if (type === "date") return "ge1900-01-01";
  if (type !== "reference") return "a";
  const target = {
    location: "Location",
    practitioner: "Practitioner",
    organization: "Organization",
    actor: "Practitioner",
    schedule: "Schedule",
  }[name];
  return `${target ?? "Patient"}/1`;
}

for (const engine of availableEngines()) {
  describe(`[${engine}] FHIR R4 facade`, () => {
    let rt: TestRuntime;
    let admin = "";
    const seen: Json[] = [];
    const ids = {
      clinic: "",
      otherClinic: "",
      provider: "",
      patients: [] as string[],
      foreign: "",
      appointments: [] as string[],
      coverages: [] as string[],
      note: "",
      schedule: "",
      document: "",
    };

    const call = async (path: string, options: { token?: string | null; headers?: Record<string, string> } = {}) => {
      const res = await rt.call("GET", path, options);
      const text = await res.text();
      const body = text ? JSON.parse(text) : undefined;
      if (body?.resourceType) {
        seen.push(body);
        for (const e of body.entry ?? []) seen.push(e.resource);
      }
      return { status: res.status, body, type: res.headers.get("content-type") ?? "" };
    };
    const search = async (path: string, token?: string) => {
      const r = await call(path, token ? { token } : {});
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body).toMatchObject({ resourceType: "Bundle", type: "searchset" });
      return r.body.entry.map((e: Json) => e.resource);
    };
    const idsOf = async (path: string, token?: string) => (await search(path, token)).map((r: Json) => r.id);
    const v2 = async (method: string, path: string, body: unknown, token = admin) => {
      const res = await rt.call(method, path, { body, token });
      const json = await res.json();
      expect(res.status, JSON.stringify(json)).toBeLessThan(300);
      return json;
    };

    beforeAll(async () => {
      rt = await startTestRuntime(
        { OPENPRACTICE_PLAN_LIMITS: '{"free":100000}', OPENPRACTICE_WORKER_POLL_MS: "50" },
        { engine },
      );
      admin = await rt.token({ scope: "admin read write" });
      const clinic = await v2("POST", "/v2/clinics", {
        name: "Riverside Physical Therapy",
        time_zone: "America/Chicago",
        address: { street: "200 Main St", city: "Springfield", state: "IL", zip_code: "62701", country: "US" },
        phone: "+1-217-555-0100",
        npi: CLINIC_NPI,
        tax_id: "36-1234567",
      });
      ids.clinic = clinic.id;
      ids.otherClinic = (
        await v2("POST", "/v2/clinics", {
          name: "Lakeside Annex",
          time_zone: "America/Chicago",
          address: { city: "Peoria", state: "IL" },
        })
      ).id;
      const provider = await v2("POST", "/v2/providers", {
        user_id: "7101",
        first_name: "Dana",
        last_name: "Reyes",
        npi: NPI,
        credentials: ["DPT"],
        clinic_ids: [ids.clinic],
      });
      ids.provider = provider.id;
      await v2("POST", "/v2/providers", {
        user_id: "7102",
        first_name: "Sam",
        last_name: "Ortiz",
        credentials: ["PTA"],
        clinic_ids: [ids.otherClinic],
      });
      const people: Array<[string, string, string, string]> = [
        ["Ruth", "Núñez", "1950-03-03", "female"],
        ["Joseph", "Nunn", "1950-07-01", "male"],
        ["Ada", "Lovelace", "1935-12-10", "female"],
        ["Alex", "Kim", "1991-01-31", "other"],
        ["Ruthie", "Abbott", "2001-05-05", "unknown"],
      ];
      for (const [first, last, dob, gender] of people) {
        const p = await v2("POST", "/v2/patients", {
          first_name: first,
          last_name: last,
          middle_name: first === "Ruth" ? "Ann" : null,
          date_of_birth: dob,
          gender,
          phone: "+1-217-555-0199",
          email: `${first.toLowerCase()}@example.com`,
          address: { street: "12 Oak Ave", city: "Springfield", state: "IL", zip_code: "62704", country: "US" },
          emergency_contact: { name: "Pat Doe", relationship: "Spouse", phone: "+1-217-555-0142" },
        });
        ids.patients.push(p.id);
      }
      // Appointments: two at the first clinic with Dana (one checked out), one at the annex.
      const category = await rt.runtime.practice.storage.repositories.catalog.ensureAppointmentCategory({
        organisationId: 1,
        name: "Follow-up",
        type: "IN_PERSON",
        durationMinutes: 30,
      });
      const book = async (patient: string, doctor: number, clinic: string, at: string) => {
        const starts = Date.parse(at) / 1000;
        const res = await rt.call("POST", "/apis/v1/appointment", {
          token: admin,
          body: {
            doctor_id: doctor,
            patient_id: Number(patient),
            clinic_id: Number(clinic),
            appointment_category: [category.id],
            timestamp: starts,
            end_timestamp: starts + 1800,
            payment_mode: "SELF_PAY",
          },
        });
        const json = await res.json();
        expect(json.code, JSON.stringify(json)).toBe(2000);
        ids.appointments.push(String(json.data.appointment_id));
        return String(json.data.appointment_id);
      };
      const first = await book(ids.patients[0]!, 7101, ids.clinic, "2031-03-03T15:00:00Z");
      await book(ids.patients[0]!, 7101, ids.clinic, "2031-03-10T15:00:00Z");
      await book(ids.patients[1]!, 7102, ids.otherClinic, "2031-03-04T15:00:00Z");
      for (const action of ["check-in", "start", "check-out"]) {
        const res = await rt.call("POST", `/apis/v1/appointment/${first}/${action}`, { token: admin });
        expect(res.status, `${action}: ${await res.clone().text()}`).toBe(200);
      }
      // Dana's working hours at Riverside: weekdays 09:00 to 17:00, Chicago time.
      ids.schedule = (
        await v2("POST", `/v2/providers/${ids.provider}/schedules`, {
          clinic_id: ids.clinic,
          weekdays: ["MO", "TU", "WE", "TH", "FR"],
          start_time: "09:00",
          end_time: "17:00",
          effective_from: "2031-01-01",
        })
      ).id;
      // The checked-out visit's note, completed with two diagnoses.
      const dana = await rt.token({ userId: 7101, scope: "read write" });
      const post = async (path: string, body?: unknown) => {
        const res = await rt.call("POST", path, { token: dana, ...(body === undefined ? {} : { body }) });
        const json = await res.json();
        expect(json.code, `${path}: ${JSON.stringify(json)}`).toBe(2000);
        return json.data;
      };
      const note = await post("/apis/hep/v2/soap-context", {
        patient_id: Number(ids.patients[0]),
        type: "FOLLOWUP_SOAP",
        appointment_id: Number(first),
      });
      ids.note = note.context_id;
      const write = async (submissionId: string, partialResponse: Record<string, unknown>) => {
        const current = (await (await rt.call("GET", `/apis/v1/form-data/${submissionId}`, { token: dana })).json())
          .data;
        await post("/apis/v1/form-data/partial", {
          submissionId,
          soapContextId: note.context_id,
          partialResponse,
          version: current.version + 1,
        });
      };
      const dx = (code: string, description: string, primary: boolean) => ({
        uuid: `dx-${code}`,
        id: 1,
        code,
        description,
        revision: "ICD10",
        billing_type: null,
        is_primary: primary,
      });
      await write(note.subjective_submission_id, { "response.Subjective.history.chief_complaint": "Low back pain" });
      await write(note.objective_submission_id, { "response.Objective.rom.lumbar": "Flexion 40 degrees" });
      await write(note.assessment_submission_id, {
        "response.Assessment.diagnosis.medical_diagnosis": [
          dx("M54.50", "Low back pain, unspecified", true),
          dx("M62.81", "Muscle weakness (generalized)", false),
        ],
      });
      await post(`/apis/v1/soap-context/${note.context_id}/sign`);
      await post(`/apis/v1/soap-context/${note.context_id}`, {
        completed: true,
        status: "COMPLETED",
        completed_at: null,
      });
      // A referral letter uploaded to the first patient's chart (no scanner here: served at once).
      const letter = multipartBody([
        { name: "category", value: "referral" },
        { name: "title", value: "Referral from Dr. Park" },
        { name: "document_date", value: "2031-02-20" },
        {
          name: "file",
          value: "Referral: low back pain, 8 visits.\n",
          fileName: "referral.txt",
          contentType: "text/plain",
        },
      ]);
      const uploaded = await rt.call("POST", `/apis/v1/patient/${ids.patients[0]}/documents`, {
        token: admin,
        body: letter.body.toString("latin1"),
        headers: { "content-type": letter.contentType },
      });
      const uploadedJson = await uploaded.json();
      expect(uploadedJson.code, JSON.stringify(uploadedJson)).toBe(2000);
      ids.document = String(uploadedJson.data.id);
      // Coverages of the first patient: a primary Part B card of her own, a secondary held by her spouse.
      const payer = await v2("POST", "/v2/payers", { payer_id: "MACB1", name: "Novitas Part B", type: "medicare" });
      for (const body of [
        { member_id: "1EG4-TE5-MK72", priority: "primary", plan_start_date: "2026-01-01", group_number: "G-100" },
        {
          member_id: "W998877",
          priority: "secondary",
          plan_name: "Gold PPO",
          subscriber: { relationship: "spouse", first_name: "Pat", last_name: "Doe", date_of_birth: "1949-02-02" },
        },
      ])
        ids.coverages.push(
          (await v2("POST", `/v2/patients/${ids.patients[0]}/coverages`, { payer_ref: payer.id, ...body })).id,
        );
      // Another organisation's patient: never found, never listed.
      const other = await rt.token({ organisationId: 2, scope: "read write" });
      ids.foreign = (
        await v2("POST", "/v2/patients", { first_name: "Ruth", last_name: "Nunez", date_of_birth: "1950-03-03" }, other)
      ).id;
    });
    afterAll(async () => {
      await rt?.stop();
    });

    it("answers a CapabilityStatement that lists exactly what answers, each type read and searched", async () => {
      // Schedules are searched by practitioner, slots by schedule (in March 2031, when Dana works).
      const scopeOf = (type: string, name: string) =>
        type === "Schedule" && name !== "actor"
          ? `&actor=Practitioner/${ids.provider}`
          : type === "Slot" && name !== "schedule"
            ? `&schedule=Schedule/${ids.schedule}${name === "start" ? "" : "&start=ge2031-03-04&start=lt2031-03-06"}`
            : "";
      const meta = await call("/fhir/R4/metadata", { token: null });
      expect(meta.status).toBe(200);
      expect(meta.type).toMatch(/^application\/fhir\+json/);
      expect(meta.body).toMatchObject({ resourceType: "CapabilityStatement", fhirVersion: "4.0.1", kind: "instance" });
      const resources = meta.body.rest[0].resource as Json[];
      expect(resources.map((r) => r.type)).toEqual([
        "Patient",
        "Practitioner",
        "PractitionerRole",
        "Organization",
        "Location",
        "Appointment",
        "Schedule",
        "Slot",
        "Coverage",
        "Encounter",
        "Condition",
        "DocumentReference",
        "Binary",
      ]);
      for (const r of resources) {
        if (r.type === "Binary") {
          // Read only: its id is a DocumentReference's attachment URL.
          expect(r.interaction.map((i: Json) => i.code)).toEqual(["read"]);
          expect((await call("/fhir/R4/Binary")).status).toBe(404);
          continue;
        }
        expect(r.interaction.map((i: Json) => i.code)).toEqual(["read", "search-type"]);
        // Every parameter it lists is accepted (a real value of its type), and the search answers.
        for (const p of r.searchParam as Json[]) {
          const value = sampleValue(r.type, p.name, p.type);
          // Coverage is searched by patient: its other parameters come with one.
          const byPatient = ["Coverage", "Condition", "DocumentReference"].includes(r.type);
          const withPatient =
            byPatient && p.name !== "patient" ? `&patient=${ids.patients[0]}` : scopeOf(r.type, p.name);
          const res = await call(`/fhir/R4/${r.type}?${encodeURIComponent(p.name)}=${value}${withPatient}`);
          expect(res.status, `${r.type}?${p.name}: ${JSON.stringify(res.body)}`).toBe(200);
        }
        const byPatient = ["Coverage", "Condition", "DocumentReference"].includes(r.type);
        const scope = byPatient ? `?patient=${ids.patients[0]}` : scopeOf(r.type, "").replace(/^&/, "?");
        const page = await search(`/fhir/R4/${r.type}${scope}`);
        expect(page.length).toBeGreaterThan(0);
        expect((await call(`/fhir/R4/${r.type}/${page[0].id}`)).status).toBe(200);
      }
      // A type it does not list does not answer.
      const unlisted = await call("/fhir/R4/MedicationRequest");
      expect(unlisted.status).toBe(404);
      expect(unlisted.body.resourceType).toBe("OperationOutcome");
    });

    it("reads a patient as US Core Patient, field for field from the v2 record", async () => {
      const id = ids.patients[0]!;
      const record = await (await rt.call("GET", `/v2/patients/${id}`)).json();
      const { body, type } = await call(`/fhir/R4/Patient/${id}`);
      expect(type).toMatch(/^application\/fhir\+json/);
      expect(body).toMatchObject({
        resourceType: "Patient",
        id,
        meta: { profile: ["http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient"] },
        identifier: [{ system: "urn:openpractice:sid:patient-id", value: id }],
        active: true,
        name: [{ use: "official", family: record.last_name, given: [record.first_name, record.middle_name] }],
        gender: "female",
        birthDate: record.date_of_birth,
        telecom: [
          { system: "phone", value: record.phone, use: "home" },
          { system: "email", value: record.email },
        ],
        address: [{ use: "home", line: ["12 Oak Ave"], city: "Springfield", state: "IL", postalCode: "62704" }],
        contact: [{ name: { text: "Pat Doe" }, telecom: [{ system: "phone", value: "+1-217-555-0142" }] }],
      });
      expect(body.meta.lastUpdated).toBe(record.updated_at);
      expect(mustSupportGaps(body, US_CORE_MUST_SUPPORT.Patient)).toEqual([]);
      // Another organisation's patient, an unknown id and a malformed one: 404 OperationOutcome.
      // An id past the integer columns' range names nothing either (not a 500 from the database).
      for (const missing of [ids.foreign, "999999", "abc", "2147483648", "9999999999"]) {
        const r = await call(`/fhir/R4/Patient/${missing}`);
        expect(r.status).toBe(404);
        expect(r.body).toMatchObject({
          resourceType: "OperationOutcome",
          issue: [{ severity: "error", code: "not-found", details: { text: "PATIENT_NOT_FOUND" } }],
        });
      }
    });

    it("searches patients by every parameter it lists, never another organisation's", async () => {
      const [ruth, joseph, ada, alex, ruthie] = ids.patients as [string, string, string, string, string];
      expect(await idsOf("/fhir/R4/Patient?family=nu")).toEqual([ruth, joseph]);
      expect(await idsOf("/fhir/R4/Patient?family:exact=Nunez")).toEqual([]);
      expect(await idsOf("/fhir/R4/Patient?family:exact=N%C3%BA%C3%B1ez")).toEqual([ruth]);
      expect(await idsOf("/fhir/R4/Patient?family:contains=love")).toEqual([ada]);
      expect(await idsOf("/fhir/R4/Patient?given=ruth")).toEqual([ruth, ruthie]);
      expect(await idsOf("/fhir/R4/Patient?name=ruth,kim")).toEqual([ruth, alex, ruthie]);
      expect(await idsOf("/fhir/R4/Patient?name=ruth&family=abb")).toEqual([ruthie]);
      expect(await idsOf("/fhir/R4/Patient?birthdate=1950")).toEqual([ruth, joseph]);
      expect(await idsOf("/fhir/R4/Patient?birthdate=1950-07")).toEqual([joseph]);
      expect(await idsOf("/fhir/R4/Patient?birthdate=ge1990-01-01")).toEqual([alex, ruthie]);
      expect(await idsOf("/fhir/R4/Patient?birthdate=gt1950&birthdate=lt2000")).toEqual([alex]);
      expect(await idsOf("/fhir/R4/Patient?gender=female")).toEqual([ruth, ada]);
      expect(await idsOf("/fhir/R4/Patient?gender=other,unknown")).toEqual([alex, ruthie]);
      expect(await idsOf(`/fhir/R4/Patient?_id=${ada},${ids.foreign}`)).toEqual([ada]);
      expect(await idsOf(`/fhir/R4/Patient?identifier=urn:openpractice:sid:patient-id|${joseph}`)).toEqual([joseph]);
      expect(await idsOf(`/fhir/R4/Patient?identifier=http://other.example|${joseph}`)).toEqual([]);
      expect(await idsOf("/fhir/R4/Patient?_lastUpdated=ge2000-01-01")).toHaveLength(5);
      expect(await idsOf("/fhir/R4/Patient?_lastUpdated=lt2000-01-01")).toEqual([]);
      expect(await idsOf("/fhir/R4/Patient?_sort=-birthdate")).toEqual([ruthie, alex, joseph, ruth, ada]);
      expect(await idsOf("/fhir/R4/Patient?_sort=family")).toEqual([ruthie, alex, ada, ruth, joseph]);
      // The same patients v2 lists, one for one.
      const listed = await (await rt.call("GET", "/v2/patients?per_page=100&sort=created_at&order=asc")).json();
      expect(await idsOf("/fhir/R4/Patient?_count=100")).toEqual(listed.data.map((p: Json) => p.id));
      expect(await idsOf("/fhir/R4/Patient?family=nunez")).not.toContain(ids.foreign);
    });

    it("pages a searchset with self and next links, walked by fhir-kit-client", async () => {
      const first = await call("/fhir/R4/Patient?_count=2");
      const links = Object.fromEntries(first.body.link.map((l: Json) => [l.relation, l.url]));
      expect(links.self).toMatch(/\/fhir\/R4\/Patient\?_count=2$/);
      expect(links.next).toMatch(/\/fhir\/R4\/Patient\?_count=2&_offset=2$/);
      expect(first.body.entry[0].fullUrl).toMatch(new RegExp(`/fhir/R4/Patient/${ids.patients[0]}$`));
      const token = await rt.token({ scope: "patients:read" });
      const client = new Client({ baseUrl: `${rt.url}/fhir/R4`, bearerToken: token });
      let bundle: Json = await client.search({ resourceType: "Patient", searchParams: { _count: "2" } });
      const walked: string[] = [];
      let pages = 0;
      while (bundle) {
        pages++;
        walked.push(...(bundle.entry ?? []).map((e: Json) => e.resource.id));
        bundle = (await client.nextPage({ bundle })) ?? null;
      }
      expect(pages).toBe(3);
      expect(walked).toEqual(ids.patients);
    });

    it("maps providers, their roles, the organisation and its clinics, within the token's clinics", async () => {
      const practitioner = (await call(`/fhir/R4/Practitioner/${ids.provider}`)).body;
      expect(practitioner).toMatchObject({
        resourceType: "Practitioner",
        identifier: [{ system: "http://hl7.org/fhir/sid/us-npi", value: NPI }, { value: ids.provider }],
        name: [{ family: "Reyes", given: ["Dana"], suffix: ["DPT"] }],
      });
      expect(mustSupportGaps(practitioner, US_CORE_MUST_SUPPORT.Practitioner)).toEqual([]);
      expect(await idsOf(`/fhir/R4/Practitioner?identifier=http://hl7.org/fhir/sid/us-npi|${NPI}`)).toEqual([
        ids.provider,
      ]);
      expect(await idsOf(`/fhir/R4/Practitioner?identifier=${NPI}`)).toEqual([ids.provider]);
      expect(await idsOf("/fhir/R4/Practitioner?name=ort")).toHaveLength(1);
      const role = (await call(`/fhir/R4/PractitionerRole/${ids.provider}`)).body;
      expect(role).toMatchObject({
        practitioner: { reference: `Practitioner/${ids.provider}` },
        organization: { reference: "Organization/1" },
        location: [{ reference: `Location/${ids.clinic}` }],
        telecom: [{ system: "phone", value: "+1-217-555-0100" }],
      });
      expect(mustSupportGaps(role, US_CORE_MUST_SUPPORT.PractitionerRole)).toEqual([]);
      expect(await idsOf(`/fhir/R4/PractitionerRole?location=Location/${ids.clinic}`)).toEqual([ids.provider]);
      expect(await idsOf(`/fhir/R4/PractitionerRole?practitioner=${ids.provider}`)).toEqual([ids.provider]);
      const org = (await call("/fhir/R4/Organization/1")).body;
      expect(org).toMatchObject({ resourceType: "Organization", active: true });
      expect(mustSupportGaps(org, US_CORE_MUST_SUPPORT.Organization)).toEqual([]);
      expect((await call("/fhir/R4/Organization/2")).status).toBe(404);
      const orgs = await call("/fhir/R4/Organization");
      expect(
        orgs.body.entry.map((e: Json) => e.resource.id),
        JSON.stringify(orgs.body),
      ).toEqual(["1"]);
      const location = (await call(`/fhir/R4/Location/${ids.clinic}`)).body;
      expect(location).toMatchObject({
        status: "active",
        name: "Riverside Physical Therapy",
        identifier: [{ system: "http://hl7.org/fhir/sid/us-npi", value: CLINIC_NPI }, { value: "361234567" }, {}],
        address: { line: ["200 Main St"], city: "Springfield", state: "IL", postalCode: "62701" },
        managingOrganization: { reference: "Organization/1" },
      });
      expect(mustSupportGaps(location, US_CORE_MUST_SUPPORT.Location)).toEqual([]);
      expect(await idsOf("/fhir/R4/Location?address-city=peoria")).toEqual([ids.otherClinic]);
      expect(await idsOf("/fhir/R4/Location?address=springf")).toEqual([ids.clinic]);
      expect(await idsOf("/fhir/R4/Location?address=main")).toEqual([]);
      expect(await idsOf("/fhir/R4/Location?address:contains=main")).toEqual([ids.clinic]);
      // A token restricted to the first clinic: the other is neither read nor listed, nor named by a role.
      const restricted = await rt.token({ scope: "read", clinicIds: [Number(ids.clinic)] });
      expect((await call(`/fhir/R4/Location/${ids.otherClinic}`, { token: restricted })).status).toBe(404);
      expect(await idsOf("/fhir/R4/Location", restricted)).toEqual([ids.clinic]);
      const roles = await search("/fhir/R4/PractitionerRole", restricted);
      expect(roles.flatMap((r: Json) => (r.location ?? []).map((l: Json) => l.reference))).toEqual([
        `Location/${ids.clinic}`,
      ]);
    });

    it("maps appointments with their participants, searched by patient, practitioner, location, date and status", async () => {
      const [checkedOut, later, annex] = ids.appointments as [string, string, string];
      const a = (await call(`/fhir/R4/Appointment/${checkedOut}`)).body;
      expect(a).toMatchObject({
        resourceType: "Appointment",
        status: "fulfilled",
        start: "2031-03-03T15:00:00.000Z",
        end: "2031-03-03T15:30:00.000Z",
        minutesDuration: 30,
        participant: [
          { actor: { reference: `Patient/${ids.patients[0]}` }, status: "accepted" },
          { actor: { reference: `Practitioner/${ids.provider}` } },
          { actor: { reference: `Location/${ids.clinic}` } },
        ],
      });
      expect(await idsOf(`/fhir/R4/Appointment?patient=Patient/${ids.patients[0]}`)).toEqual([checkedOut, later]);
      expect(await idsOf(`/fhir/R4/Appointment?practitioner=${ids.provider}`)).toEqual([checkedOut, later]);
      expect(await idsOf(`/fhir/R4/Appointment?location=Location/${ids.otherClinic}`)).toEqual([annex]);
      expect(await idsOf("/fhir/R4/Appointment?date=2031-03-04")).toEqual([annex]);
      expect(await idsOf("/fhir/R4/Appointment?date=ge2031-03-04&date=lt2031-03-11")).toEqual([annex, later]);
      expect(await idsOf("/fhir/R4/Appointment?status=booked")).toEqual([annex, later]);
      expect(await idsOf("/fhir/R4/Appointment?status=fulfilled,noshow")).toEqual([checkedOut]);
      expect(await idsOf("/fhir/R4/Appointment?_sort=-date")).toEqual([later, annex, checkedOut]);
      // The same appointments v1 lists within the token's clinics: the annex's is out of a Riverside-only token's reach.
      const restricted = await rt.token({ scope: "read", clinicIds: [Number(ids.clinic)] });
      expect(await idsOf("/fhir/R4/Appointment", restricted)).toEqual([checkedOut, later]);
      const hidden = await call(`/fhir/R4/Appointment/${annex}`, { token: restricted });
      expect(hidden.status).toBe(404);
      expect(hidden.body.resourceType).toBe("OperationOutcome");
      const bad = await call("/fhir/R4/Appointment?status=waiting");
      expect(bad.status).toBe(400);
      expect(bad.body.issue[0].expression).toEqual(["status"]);
    });

    it("maps working hours as Schedules and the free time they leave as Slots", async () => {
      const schedule = (await call(`/fhir/R4/Schedule/${ids.schedule}`)).body;
      expect(schedule).toMatchObject({
        resourceType: "Schedule",
        active: true,
        actor: [{ reference: `Practitioner/${ids.provider}` }, { reference: `Location/${ids.clinic}` }],
        planningHorizon: { start: "2031-01-01" },
        comment: "Mon, Tue, Wed, Thu, Fri 09:00-17:00 (America/Chicago)",
      });
      expect(await idsOf(`/fhir/R4/Schedule?actor=Practitioner/${ids.provider}`)).toEqual([ids.schedule]);
      expect((await call("/fhir/R4/Schedule")).body.issue[0].expression).toEqual(["actor"]);
      // Monday 3 March 2031: 16 half hours, less the 09:00 visit (checked out: it held the time).
      const monday = await search(`/fhir/R4/Slot?schedule=Schedule/${ids.schedule}&start=2031-03-03&_count=100`);
      expect(monday).toHaveLength(15);
      expect(monday[0]).toMatchObject({
        schedule: { reference: `Schedule/${ids.schedule}` },
        status: "free",
        start: "2031-03-03T15:30:00.000Z",
        end: "2031-03-03T16:00:00.000Z",
      });
      expect((await call(`/fhir/R4/Slot/${monday[0].id}`)).body.start).toBe("2031-03-03T15:30:00.000Z");
      const taken = `${ids.schedule}-${Date.parse("2031-03-03T15:00:00Z") / 1000}-30`;
      expect((await call(`/fhir/R4/Slot/${taken}`)).status).toBe(404);
      // A week, 16 half hours a day on the four other weekdays, 15 on Monday; a Saturday has none.
      const week = await search(
        `/fhir/R4/Slot?schedule=Schedule/${ids.schedule}&start=ge2031-03-03&start=lt2031-03-10&_count=100`,
      );
      expect(week).toHaveLength(15 + 4 * 16);
      expect(await search(`/fhir/R4/Slot?schedule=Schedule/${ids.schedule}&start=2031-03-08`)).toEqual([]);
      const month = await call(`/fhir/R4/Slot?schedule=Schedule/${ids.schedule}&start=ge2031-03-01&start=lt2031-05-01`);
      expect(month.status).toBe(400);
      expect(month.body.issue[0].expression).toEqual(["start"]);
    });

    it("maps a patient's coverages as US Core Coverage, searched by patient", async () => {
      const [primary, secondary] = ids.coverages as [string, string];
      const c = (await call(`/fhir/R4/Coverage/${primary}`)).body;
      expect(c).toMatchObject({
        resourceType: "Coverage",
        meta: { profile: ["http://hl7.org/fhir/us/core/StructureDefinition/us-core-coverage"] },
        status: "active",
        subscriberId: "1EG4-TE5-MK72",
        beneficiary: { reference: `Patient/${ids.patients[0]}` },
        subscriber: { reference: `Patient/${ids.patients[0]}` },
        relationship: { coding: [{ code: "self" }] },
        period: { start: "2026-01-01" },
        payor: [{ display: "Novitas Part B", identifier: { value: "MACB1" } }],
        class: [{ type: { coding: [{ code: "group" }] }, value: "G-100" }],
        order: 1,
      });
      expect(mustSupportGaps(c, US_CORE_MUST_SUPPORT.Coverage)).toEqual([]);
      const spouse = (await call(`/fhir/R4/Coverage/${secondary}`)).body;
      expect(spouse).toMatchObject({
        subscriber: { display: "Pat Doe" },
        relationship: { coding: [{ code: "spouse" }] },
      });
      expect(await idsOf(`/fhir/R4/Coverage?patient=${ids.patients[0]}`)).toEqual([primary, secondary]);
      expect(await idsOf(`/fhir/R4/Coverage?beneficiary=Patient/${ids.patients[0]}&_id=${secondary}`)).toEqual([
        secondary,
      ]);
      expect(await idsOf(`/fhir/R4/Coverage?patient=${ids.patients[1]}`)).toEqual([]);
      expect(await idsOf(`/fhir/R4/Coverage?patient=${ids.foreign}`)).toEqual([]);
      const unnamed = await call("/fhir/R4/Coverage");
      expect(unnamed.status).toBe(400);
      expect(unnamed.body.issue[0].expression).toEqual(["patient"]);
    });

    it("maps the visit as a US Core Encounter and its note's diagnoses as encounter-diagnosis Conditions", async () => {
      const [checkedOut, later] = ids.appointments as [string, string, string];
      const e = (await call(`/fhir/R4/Encounter/${checkedOut}`)).body;
      expect(e).toMatchObject({
        resourceType: "Encounter",
        meta: { profile: ["http://hl7.org/fhir/us/core/StructureDefinition/us-core-encounter"] },
        status: "finished",
        class: { code: "AMB" },
        type: [{ text: "Follow-up" }],
        subject: { reference: `Patient/${ids.patients[0]}` },
        participant: [{ individual: { reference: `Practitioner/${ids.provider}` } }],
        period: { start: "2031-03-03T15:00:00.000Z", end: "2031-03-03T15:30:00.000Z" },
        location: [{ location: { reference: `Location/${ids.clinic}` } }],
        serviceProvider: { reference: "Organization/1" },
      });
      expect(mustSupportGaps(e, US_CORE_MUST_SUPPORT.Encounter)).toEqual([]);
      for (const beyond of ["Encounter/2147483648", "Coverage/9999999999", "Slot/2147483648-1900000000-30"])
        expect((await call(`/fhir/R4/${beyond}`)).status).toBe(404);
      expect(await idsOf("/fhir/R4/Encounter?patient=Patient/9999999999")).toEqual([]);
      // A booked appointment is not an encounter (yet).
      expect((await call(`/fhir/R4/Encounter/${later}`)).status).toBe(404);
      expect(await idsOf(`/fhir/R4/Encounter?patient=${ids.patients[0]}`)).toEqual([checkedOut]);
      expect(await idsOf("/fhir/R4/Encounter?status=finished&date=2031-03")).toEqual([checkedOut]);
      expect(await idsOf("/fhir/R4/Encounter?status=arrived")).toEqual([]);

      const conditions = await search(`/fhir/R4/Condition?patient=${ids.patients[0]}`);
      expect(conditions.map((c: Json) => c.code.coding[0].code)).toEqual(["M54.50", "M62.81"]);
      expect(conditions[0]).toMatchObject({
        id: `${ids.note}-0`,
        meta: { profile: ["http://hl7.org/fhir/us/core/StructureDefinition/us-core-condition-encounter-diagnosis"] },
        category: [{ coding: [{ code: "encounter-diagnosis" }] }],
        code: {
          coding: [{ system: "http://hl7.org/fhir/sid/icd-10-cm", code: "M54.50" }],
          text: "Low back pain, unspecified",
        },
        subject: { reference: `Patient/${ids.patients[0]}` },
        encounter: { reference: `Encounter/${checkedOut}` },
      });
      expect(mustSupportGaps(conditions[0], US_CORE_MUST_SUPPORT.Condition)).toEqual([]);
      expect((await call(`/fhir/R4/Condition/${ids.note}-1`)).body.code.coding[0].code).toBe("M62.81");
      expect((await call(`/fhir/R4/Condition/${ids.note}-7`)).status).toBe(404);
      expect(await idsOf(`/fhir/R4/Condition?patient=${ids.patients[0]}&code=M6281`)).toEqual([`${ids.note}-1`]);
      expect(
        await idsOf(`/fhir/R4/Condition?patient=${ids.patients[0]}&code=http://hl7.org/fhir/sid/icd-10-cm|M54.50`),
      ).toEqual([`${ids.note}-0`]);
      expect(await idsOf(`/fhir/R4/Condition?patient=${ids.patients[0]}&encounter=Encounter/${later}`)).toEqual([]);
      expect(await idsOf(`/fhir/R4/Condition?patient=${ids.patients[1]}`)).toEqual([]);
      // A token restricted to the annex does not reach the Riverside note's diagnoses.
      const annexOnly = await rt.token({ scope: "read", clinicIds: [Number(ids.otherClinic)] });
      expect(await idsOf(`/fhir/R4/Condition?patient=${ids.patients[0]}`, annexOnly)).toEqual([]);
      expect((await call(`/fhir/R4/Condition/${ids.note}-0`, { token: annexOnly })).status).toBe(404);
      expect((await call(`/fhir/R4/Encounter/${checkedOut}`, { token: annexOnly })).status).toBe(404);
      expect((await call("/fhir/R4/Condition")).body.issue[0].expression).toEqual(["patient"]);
    });

    it("lists a patient's documents as US Core DocumentReferences whose Binary is the document's bytes", async () => {
      const d = (await call(`/fhir/R4/DocumentReference/${ids.document}`)).body;
      expect(d).toMatchObject({
        resourceType: "DocumentReference",
        meta: { profile: ["http://hl7.org/fhir/us/core/StructureDefinition/us-core-documentreference"] },
        status: "current",
        type: { coding: [{ system: "http://loinc.org", code: "57133-1" }], text: "referral" },
        category: [{ coding: [{ code: "clinical-note" }] }],
        subject: { reference: `Patient/${ids.patients[0]}` },
        content: [
          {
            attachment: {
              contentType: "text/plain",
              url: `Binary/${ids.document}`,
              size: 35,
              title: "Referral from Dr. Park",
              creation: "2031-02-20",
            },
          },
        ],
        context: { period: { start: "2031-02-20" } },
      });
      expect(mustSupportGaps(d, US_CORE_MUST_SUPPORT.DocumentReference)).toEqual([]);
      const raw = await rt.call("GET", `/fhir/R4/Binary/${ids.document}`);
      expect(raw.headers.get("content-type")).toMatch(/^text\/plain/);
      expect(await raw.text()).toBe("Referral: low back pain, 8 visits.\n");
      const json = await call(`/fhir/R4/Binary/${ids.document}`, { headers: { accept: "application/fhir+json" } });
      expect(json.body).toMatchObject({ resourceType: "Binary", contentType: "text/plain" });
      expect(Buffer.from(json.body.data, "base64").toString()).toBe("Referral: low back pain, 8 visits.\n");
      expect(await idsOf(`/fhir/R4/DocumentReference?patient=${ids.patients[0]}&category=referral`)).toEqual([
        ids.document,
      ]);
      // The completed note's summary PDF joins the chart once the worker has rendered it: a visit_summary document.
      let summaries: Json[] = [];
      for (let i = 0; i < 200 && summaries.length === 0; i++) {
        summaries = await search(`/fhir/R4/DocumentReference?patient=${ids.patients[0]}&category=visit_summary`);
        if (summaries.length === 0) await new Promise((r) => setTimeout(r, 100));
      }
      expect(summaries).toHaveLength(1);
      expect(summaries[0]).toMatchObject({
        type: { coding: [{ system: "http://loinc.org", code: "11506-3" }] },
        content: [{ attachment: { contentType: "application/pdf" } }],
        context: { encounter: [{ reference: `Encounter/${ids.appointments[0]}` }] },
      });
      const pdf = await rt.call("GET", `/fhir/R4/${summaries[0].content[0].attachment.url}`);
      expect(pdf.headers.get("content-type")).toBe("application/pdf");
      expect(
        Buffer.from(await pdf.arrayBuffer())
          .subarray(0, 5)
          .toString(),
      ).toBe("%PDF-");
      expect((await idsOf(`/fhir/R4/DocumentReference?patient=${ids.patients[0]}`)).sort()).toEqual(
        [ids.document, summaries[0].id].sort(),
      );
      expect(await idsOf(`/fhir/R4/DocumentReference?patient=${ids.patients[0]}&category=imaging`)).toEqual([]);
      expect(await idsOf(`/fhir/R4/DocumentReference?patient=${ids.patients[0]}&date=2031-02`)).toEqual([ids.document]);
      expect(await idsOf(`/fhir/R4/DocumentReference?patient=${ids.patients[0]}&date=lt2031-02-20`)).toEqual([]);
      expect(await idsOf(`/fhir/R4/DocumentReference?patient=${ids.patients[1]}`)).toEqual([]);
      expect((await call("/fhir/R4/DocumentReference")).body.issue[0].expression).toEqual(["patient"]);
      for (const missing of ["999999", "x"]) {
        expect((await call(`/fhir/R4/DocumentReference/${missing}`)).status).toBe(404);
        expect((await call(`/fhir/R4/Binary/${missing}`)).status).toBe(404);
      }
    });

    it("takes SMART system scopes and the module scopes, and refuses others with an OperationOutcome", async () => {
      const smart = await rt.token({ scope: "system/Patient.rs" });
      expect((await call("/fhir/R4/Patient", { token: smart })).status).toBe(200);
      const refused = await call("/fhir/R4/Practitioner", { token: smart });
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ resourceType: "OperationOutcome", issue: [{ code: "forbidden" }] });
      const all = await rt.token({ scope: "system/*.rs" });
      expect((await call("/fhir/R4/Location", { token: all })).status).toBe(200);
      const unauthenticated = await call("/fhir/R4/Patient", { token: null });
      expect(unauthenticated.status).toBe(401);
      expect(unauthenticated.body.issue[0].code).toBe("login");
    });

    it("refuses bad searches naming each parameter, unless lenient", async () => {
      const bad = await call("/fhir/R4/Patient?colour=blue&family=x&shoe-size=9");
      expect(bad.status).toBe(400);
      expect(bad.body.resourceType).toBe("OperationOutcome");
      expect(bad.body.issue.map((i: Json) => i.expression)).toEqual([["colour"], ["shoe-size"]]);
      expect(bad.body.issue[0]).toMatchObject({ severity: "error", code: "invalid" });
      const lenient = await call("/fhir/R4/Patient?colour=blue&family=nunn", {
        headers: { prefer: "handling=lenient" },
      });
      expect(lenient.status).toBe(200);
      expect(lenient.body.entry.map((e: Json) => e.resource.id)).toEqual([ids.patients[1]]);
      expect(lenient.body.link[0].url).not.toContain("colour");
      for (const [query, parameter] of [
        ["birthdate=1950-13-01", "birthdate"],
        ["birthdate=sa1950", "birthdate"],
        ["_lastUpdated=yesterday", "_lastUpdated"],
        ["_count=101", "_count"],
        ["_count=-1", "_count"],
        ["family:fuzzy=x", "family:fuzzy"],
        ["gender=robot", "gender"],
        ["_sort=colour", "_sort"],
        ["_format=xml", "_format"],
      ] as const) {
        const r = await call(`/fhir/R4/Patient?${query}`);
        expect(r.status, query).toBe(400);
        expect(r.body.issue[0].expression, query).toEqual([parameter]);
      }
    });

    it("pages nothing with _count=0, takes one _sort key, refuses dates that do not exist, keeps references typed", async () => {
      const none = await call("/fhir/R4/Patient?_count=0");
      expect(none.body.link.map((l: Json) => l.relation)).toEqual(["self"]);
      expect(none.body.entry).toEqual([]);
      const twoKeys = await call("/fhir/R4/Patient?_sort=family,birthdate");
      expect(twoKeys.status).toBe(400);
      expect(twoKeys.body.issue[0].expression).toEqual(["_sort"]);
      for (const query of [
        "_lastUpdated=2026-02-30T10:00:00Z",
        "_lastUpdated=2026-11-28T24:30:00Z",
        "birthdate=1950-02-30",
      ]) {
        const r = await call(`/fhir/R4/Patient?${query}`);
        expect(r.status, query).toBe(400);
      }
      // Past the year 9999: a lower bound matches nothing, an upper bound everything (on every engine alike).
      expect(await idsOf("/fhir/R4/Patient?birthdate=gt9999")).toEqual([]);
      expect(await idsOf("/fhir/R4/Patient?_lastUpdated=gt9999")).toEqual([]);
      expect(await idsOf("/fhir/R4/Patient?birthdate=le9999&_count=100")).toEqual(ids.patients);
      // A reference to another type names none of this one.
      expect(await idsOf(`/fhir/R4/PractitionerRole?practitioner=Patient/${ids.provider}`)).toEqual([]);
      expect(await idsOf(`/fhir/R4/Coverage?patient=Practitioner/${ids.patients[0]}`)).toEqual([]);
      // A system with no value: every record with an identifier of that system.
      expect(await idsOf("/fhir/R4/Practitioner?identifier=http://hl7.org/fhir/sid/us-npi|")).toEqual([ids.provider]);
      expect(await idsOf("/fhir/R4/Patient?identifier=urn:openpractice:sid:patient-id|&_count=100")).toEqual(
        ids.patients,
      );
      expect(await idsOf("/fhir/R4/Organization?address=main")).toEqual([]);
      // A patient registered without an address: only what the record holds (the default country), no empty parts.
      const bare = await v2("POST", "/v2/patients", {
        first_name: "Nell",
        last_name: "Bare",
        date_of_birth: "1999-09-09",
      });
      const nell = (await call(`/fhir/R4/Patient/${bare.id}`)).body;
      expect(nell.address).toEqual([{ use: "home", country: "US" }]);
      expect(nell.telecom).toBeUndefined();
    });

    it("sent only resources that validate against FHIR R4 (and US Core Patient) with @medplum/core", () => {
      expect(seen.length).toBeGreaterThan(50);
      const types = new Set(seen.map((r) => r.resourceType));
      for (const t of [
        "Patient",
        "Practitioner",
        "PractitionerRole",
        "Organization",
        "Location",
        "Bundle",
        "OperationOutcome",
      ])
        expect(types).toContain(t);
      expect(seen.flatMap((r) => fhirProblems(r))).toEqual([]);
    });
  });
}
