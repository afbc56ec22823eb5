import { connect } from "node:net";
import { createPractice } from "@openpractice/core";
import { createHttpHandler } from "@openpractice/http";
import { seedDemo, type SeedSummary } from "@openpractice/runtime";
import { MemoryStorage, testPracticeKeys } from "@openpractice/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { multipartBody } from "../support/multipart.js";
import { ReplyChecker } from "../support/openapi-check.js";
import { FakePushService } from "../support/push-service.js";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";
import { WebhookReceiver } from "../support/webhook-receiver.js";

type Json = any;

/** Sends raw bytes on a fresh connection and returns everything the server answers before closing. */
function raw(url: string, request: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(request));
    let answer = "";
    socket.on("data", (d) => (answer += d));
    socket.on("close", () => resolve(answer));
    socket.on("error", reject);
  });
}

const DAY = Math.floor(Date.parse("2031-09-01T00:00:00Z") / 1000);
const HOUR = 3600;

/**
 * Real replies of the running server, each validated against the OpenAPI document's schema for its operation and
 * status (JSON Schema 2020-12, $refs resolved into the components, every object closed): every `required` and
 * every type the document claims is what the server sends, and it sends nothing the document leaves out.
 */
describe("replies of the running server match /openapi.json", () => {
  let rt: TestRuntime;
  let seed: SeedSummary;
  let checker: ReplyChecker;
  let doc: Json;
  let admin: string;
  let readOnly: string;
  let receiver: WebhookReceiver;
  let push: FakePushService;
  const problems: string[] = [];
  let slot = 0;

  /** Calls `op` ("METHOD /template") at `path`, checks the reply against the document and its status. */
  async function call(
    op: string,
    path: string,
    expected: number,
    options: { body?: unknown; token?: string | null; headers?: Record<string, string> } = {},
  ): Promise<Json> {
    const [method, template] = op.split(" ") as [string, string];
    const res = await rt.call(method, path, options);
    const text = await res.text();
    const body = text === "" ? undefined : JSON.parse(text);
    expect(res.status, `${op} at ${path}: ${text.slice(0, 400)}`).toBe(expected);
    problems.push(...checker.problems(method, template, res.status, res.headers.get("content-type"), body));
    problems.push(...securityHeaderProblems(op, res));
    return body;
  }

  /**
   * Every reply carries nosniff, a referrer policy, a frame refusal and a CSP; every reply of an operation that
   * needs a token, and every error, carries Cache-Control: no-store (patient data is kept by no cache).
   */
  function securityHeaderProblems(op: string, res: Response): string[] {
    const [method, template] = op.split(" ") as [string, string];
    const operation = doc.paths[template]?.[method.toLowerCase()];
    const authenticated = (operation?.security?.length ?? 0) > 0 || res.status >= 400;
    const expected: Record<string, RegExp> = {
      "x-content-type-options": /^nosniff$/,
      "referrer-policy": /^no-referrer$/,
      "x-frame-options": /^DENY$/,
      "content-security-policy": /frame-ancestors 'none'/,
      ...(authenticated ? { "cache-control": /(^|[\s,])no-store($|[\s,])/ } : {}),
    };
    return Object.entries(expected)
      .filter(([name, value]) => !value.test(res.headers.get(name) ?? ""))
      .map(([name]) => `${op} ${res.status}: ${name} is ${res.headers.get(name)}`);
  }

  beforeAll(async () => {
    rt = await startTestRuntime({
      OPENPRACTICE_PLAN_LIMITS: JSON.stringify({ professional: 1_000_000 }),
      OPENPRACTICE_WORKER_POLL_MS: "50",
    });
    seed = await seedDemo(rt.runtime.practice, { organisationId: 1, patients: 3, jwtSecret: undefined });
    doc = await (await fetch(`${rt.url}/openapi.json`)).json();
    checker = new ReplyChecker(doc);
    admin = await rt.token({ scope: "read write admin" });
    readOnly = await rt.token({ scope: "read" });
    receiver = await new WebhookReceiver().start();
    push = await new FakePushService().start();
  });
  beforeEach(() => {
    problems.length = 0;
  });
  afterAll(async () => {
    await receiver?.stop();
    await push?.stop();
    await rt?.stop();
  });

  it("system: /healthz, /readyz, /openapi.json (servers under the mount prefix), /docs", async () => {
    expect(await call("GET /healthz", "/healthz", 200, { token: null })).toEqual({ status: "ok" });
    expect(await call("GET /readyz", "/readyz", 200, { token: null })).toEqual({ status: "ready" });
    const root = await call("GET /openapi.json", "/openapi.json", 200, { token: null });
    expect(root.servers).toEqual([{ url: "/", description: expect.any(String) }]);
    const mounted = await call("GET /openapi.json", "/openapi.json", 200, {
      token: null,
      headers: { "x-forwarded-prefix": "/emr" },
    });
    expect(mounted.servers).toEqual([{ url: "/emr", description: expect.any(String) }]);
    expect(mounted.paths).toEqual(root.paths);
    const page = await rt.call("GET", "/docs", { token: null });
    expect(Object.keys(doc.paths["/docs"].get.responses["200"].content)).toEqual([
      page.headers.get("content-type")!.split(";")[0],
    ]);
    expect(problems).toEqual([]);
  });

  it("the 401 of oversized headers, the 4xx every public route documents, is what the server answers", async () => {
    const oversized = (path: string) =>
      `GET ${path} HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${"a".repeat(40_000)}\r\n\r\n`;
    for (const [template, path] of [
      ["/healthz", "/healthz"],
      ["/readyz", "/readyz"],
      ["/openapi.json", "/openapi.json"],
      ["/docs", "/docs"],
      ["/apis/v1/notifications/vapid-public-key", "/apis/v1/notifications/vapid-public-key"],
      ["/.well-known/jwks.json", "/.well-known/jwks.json"],
      ["/.well-known/oauth-authorization-server", "/.well-known/oauth-authorization-server"],
      ["/v2/patients", "/v2/patients"],
      ["/apis/v1/webhooks/subscriptions", "/apis/v1/webhooks/subscriptions"],
    ] as const) {
      const answer = await raw(rt.url, oversized(path));
      const split = answer.indexOf("\r\n\r\n");
      const head = answer.slice(0, split);
      expect(head, path).toMatch(/^HTTP\/1\.1 401 /);
      const type = /\r\ncontent-type: ([^\r\n]+)/i.exec(head)?.[1] ?? null;
      problems.push(...checker.problems("GET", template, 401, type, JSON.parse(answer.slice(split + 4))));
    }
    expect(problems).toEqual([]);
  });

  it("/readyz answers 503 with its documented body when the database does not answer", async () => {
    const storage = new MemoryStorage();
    storage.ping = async () => {
      throw new Error("connection refused");
    };
    const handler = createHttpHandler({
      practice: createPractice({ storage, keys: testPracticeKeys() }),
      authenticator: { authenticate: async () => Promise.reject(new Error("no token needed")) },
    });
    const res = await handler(new Request("http://127.0.0.1/readyz"));
    expect(res.status).toBe(503);
    const body = await res.json();
    expect(body).toEqual({ status: "unavailable", reason: "database unreachable" });
    expect(checker.problems("GET", "/readyz", 503, res.headers.get("content-type"), body)).toEqual([]);
  });

  const ids: Record<string, any> = {};

  it("v1 patients: register (2000 and 2301), read, update, and the v1 errors", async () => {
    const full = {
      first_name: "Maria",
      last_name: "Lopez",
      middle_name: "Elena",
      date_of_birth: "1984-07-21",
      sex: "FEMALE",
      mobile: "+1-312-555-0142",
      email_address: "maria.lopez@example.com",
      address: { line1: "1200 W Harrison St", line2: "Apt 4B", city: "Chicago", state: "IL", postal_code: "60607" },
      clinic_id: seed.clinic_ids[0],
    };
    const created = await call("POST /apis/v1/patient", "/apis/v1/patient", 200, { body: full });
    expect(created.code).toBe(2000);
    expect(typeof created.data.patient_id).toBe("number");
    ids.v1Patient = created.data.patient_id;
    expect((await call("POST /apis/v1/patient", "/apis/v1/patient", 200, { body: full })).code).toBe(2301);
    // Only the required fields: the others come back null.
    const bare = await call("POST /apis/v1/patient", "/apis/v1/patient", 200, {
      body: { first_name: "Tom", last_name: "Bare", date_of_birth: "1990-01-01" },
    });
    expect(bare.data.mobile).toBeNull();
    const read = await call("GET /apis/v1/patient/{id}", `/apis/v1/patient/${ids.v1Patient}`, 200);
    await call("GET /apis/v1/patient/{id}", `/apis/v1/patient/${bare.data.patient_id}`, 200);
    // The check bites: a v1 id as a string, a missing `data` or a property the document does not name all fail.
    const check = (body: unknown) =>
      checker.problems("GET", "/apis/v1/patient/{id}", 200, "application/json; charset=utf-8", body);
    expect(check({ ...read, data: { ...read.data, patient_id: String(read.data.patient_id) } })).toEqual([
      expect.stringContaining("/data/patient_id must be integer"),
    ]);
    const { data: _data, ...withoutData } = read;
    expect(check(withoutData)).toEqual([expect.stringContaining("must have required property 'data'")]);
    expect(check({ ...read, data: { ...read.data, nickname: "M" } })).toEqual([
      expect.stringContaining("must NOT have additional properties"),
    ]);
    await call("POST /apis/v1/patient/{id}", `/apis/v1/patient/${ids.v1Patient}`, 200, {
      body: { mobile: null, status: "INACTIVE" },
    });
    const missing = await call("GET /apis/v1/patient/{id}", "/apis/v1/patient/999999", 404);
    expect(missing).toMatchObject({ code: 4040, data: null, error_code: "PATIENT_NOT_FOUND" });
    const invalid = await call("POST /apis/v1/patient", "/apis/v1/patient", 400, {
      body: { first_name: "", date_of_birth: "1990-02-30" },
    });
    expect(invalid.errors.length).toBeGreaterThan(0);
    await call("GET /apis/v1/patient/{id}", `/apis/v1/patient/${ids.v1Patient}`, 401, { token: null });
    await call("POST /apis/v1/patient", "/apis/v1/patient", 403, { body: full, token: readOnly });
    expect(problems).toEqual([]);
  });

  it("v2 patients: create, read with fields and expand, list, update, and the v2 errors", async () => {
    const created = await call("POST /v2/patients", "/v2/patients", 201, {
      body: {
        first_name: "Noor",
        last_name: "Haddad",
        date_of_birth: "1979-11-02",
        gender: "female",
        email: "noor.haddad@example.com",
        phone: "+1-773-555-0100",
        address: { street: "55 E Monroe St", city: "Chicago", state: "IL", zip_code: "60603", country: "US" },
        emergency_contact: { name: "Sami Haddad", relationship: "brother", phone: "+1-773-555-0101" },
        insurance: { provider: "Aetna", policy_number: "W123456789", group_number: "G-77" },
      },
    });
    expect(typeof created.id).toBe("string");
    ids.v2Patient = created.id;
    const bare = await call("POST /v2/patients", "/v2/patients", 201, {
      body: { first_name: "Ivo", last_name: "Bare", date_of_birth: "1991-03-04" },
    });
    expect(bare.address).toMatchObject({ street: null, city: null, state: null, zip_code: null });
    expect(bare.middle_name).toBeNull();
    await call("POST /v2/patients", "/v2/patients", 409, {
      body: { first_name: "Noor", last_name: "Haddad", date_of_birth: "1979-11-02" },
    });
    await call("GET /v2/patients/{id}", `/v2/patients/${ids.v2Patient}`, 200);
    expect(
      Object.keys(await call("GET /v2/patients/{id}", `/v2/patients/${ids.v2Patient}?fields=first_name`, 200)),
    ).toEqual(["id", "first_name"]);
    const expanded = await call(
      "GET /v2/patients/{id}",
      `/v2/patients/${seed.patient_ids[0]}?expand=medical_records,appointments,insurance`,
      200,
    );
    expect(Array.isArray(expanded.insurance)).toBe(true);
    expect(expanded.appointments.length).toBeGreaterThan(0);
    await call("GET /v2/patients", "/v2/patients", 200);
    await call("GET /v2/patients", "/v2/patients?fields=last_name,email&expand=insurance&per_page=2", 200);
    await call("GET /v2/patients", "/v2/patients?search=Haddad", 200);
    await call("PATCH /v2/patients/{id}", `/v2/patients/${ids.v2Patient}`, 200, {
      body: { phone: null, address: { street: "1 N State St" } },
    });
    const missing = await call("GET /v2/patients/{id}", "/v2/patients/999999", 404);
    expect(missing.error.code).toBe("PATIENT_NOT_FOUND");
    await call("GET /v2/patients", "/v2/patients?per_page=0", 400);
    await call("POST /v2/patients", "/v2/patients", 400, { body: { first_name: 7 } });
    await call("GET /v2/patients", "/v2/patients", 401, { token: null });
    await call("POST /v2/patients", "/v2/patients", 403, { body: {}, token: readOnly });
    expect(problems).toEqual([]);
  });

  it("v1 appointments: catalog, book, read, list, history, actions, cancel, reschedule", async () => {
    const categories = await call("GET /apis/v1/appointment/categories", "/apis/v1/appointment/categories", 200);
    const reasons = await call(
      "GET /apis/v1/appointment/appointment-cancellation",
      "/apis/v1/appointment/appointment-cancellation",
      200,
    );
    await call("GET /apis/v1/clinics", "/apis/v1/clinics", 200);
    await call("GET /apis/v1/providers", "/apis/v1/providers", 200);
    await call("POST /apis/v1/clinic/{clinic_id}/settings", `/apis/v1/clinic/${seed.clinic_ids[0]}/settings`, 200, {
      body: { allow_double_booking: false },
    });
    const book = (over: Record<string, unknown> = {}) => {
      slot += 1;
      return call("POST /apis/v1/appointment", "/apis/v1/appointment", 200, {
        body: {
          doctor_id: 101,
          patient_id: ids.v1Patient,
          clinic_id: seed.clinic_ids[0],
          appointment_category: [categories.data[0].id],
          timestamp: DAY + slot * HOUR,
          end_timestamp: DAY + slot * HOUR + 2700,
          payment_mode: "SELF_PAY",
          ...over,
        },
      });
    };
    const booked = await book({ comments: "Prefers afternoons" });
    expect(booked.data.warnings).toEqual([]);
    ids.appointment = booked.data.appointment_id;
    await call("GET /apis/v1/appointment/{appointment_id}", `/apis/v1/appointment/${ids.appointment}`, 200);
    await call("GET /apis/v1/appointments", `/apis/v1/appointments?patient_id=${ids.v1Patient}`, 200);
    await call("GET /apis/v1/appointments", "/apis/v1/appointments?size=5", 200);
    for (const action of ["check-in", "start", "check-out"])
      await call(
        `POST /apis/v1/appointment/{appointment_id}/${action}`,
        `/apis/v1/appointment/${ids.appointment}/${action}`,
        200,
      );
    await call(
      "GET /apis/v1/appointment/{appointment_id}/history",
      `/apis/v1/appointment/${ids.appointment}/history`,
      200,
    );
    const other = (await book()).data.appointment_id;
    await call(
      "POST /apis/v1/appointment/{appointment_id}/reschedule",
      `/apis/v1/appointment/${other}/reschedule`,
      200,
      { body: { timestamp: DAY + 300 * HOUR, end_timestamp: DAY + 300 * HOUR + 1800 } },
    );
    const cancelled = await call(
      "POST /apis/v1/appointment/appointment-cancel/{appointment_id}",
      `/apis/v1/appointment/appointment-cancel/${other}`,
      200,
      {
        body: {
          cancellation_reason_key: reasons.data[1].reason_key,
          cancellation_reason_label: reasons.data[1].reason_label,
          cancellation_reason_comment: "Called the front desk",
        },
      },
    );
    expect(cancelled.data.cancelled_at).toEqual(expect.any(String));
    await call("GET /apis/v1/appointment/{appointment_id}", `/apis/v1/appointment/${other}`, 200);
    await call("POST /apis/v1/appointment/{appointment_id}/check-in", `/apis/v1/appointment/${other}/check-in`, 409);
    // A visit that started an hour ago without the patient: a no-show.
    const started = Math.floor(Date.now() / 1000 / HOUR) * HOUR - 2 * HOUR;
    const missed = (await book({ timestamp: started, end_timestamp: started + 1800 })).data.appointment_id;
    await call("POST /apis/v1/appointment/{appointment_id}/no-show", `/apis/v1/appointment/${missed}/no-show`, 200);
    await call("GET /apis/v1/appointment/{appointment_id}", "/apis/v1/appointment/999999", 404);
    expect(problems).toEqual([]);
  });

  it("v1 cases, referring physicians, insurance cards and authorizations", async () => {
    await call("GET /apis/soap-enrichment/v1/specializations", "/apis/soap-enrichment/v1/specializations", 200);
    const physician = await call(
      "POST /apis/soap-enrichment/v1/referringPhysician",
      "/apis/soap-enrichment/v1/referringPhysician",
      200,
      { body: { first_name: "Alan", last_name: "Chen", npi: "1245319599", city: "Chicago", state: "IL" } },
    );
    const physicianId = physician.data.ref_physician_id;
    await call(
      "GET /apis/soap-enrichment/v1/referringPhysician/{id}",
      `/apis/soap-enrichment/v1/referringPhysician/${physicianId}`,
      200,
    );
    await call(
      "POST /apis/soap-enrichment/v1/referringPhysician/{id}",
      `/apis/soap-enrichment/v1/referringPhysician/${physicianId}`,
      200,
      { body: { phone_number: 3125550176 } },
    );
    await call(
      "GET /apis/soap-enrichment/v1/referringPhysician/search",
      "/apis/soap-enrichment/v1/referringPhysician/search?q=chen",
      200,
    );
    const card = await call(
      "POST /apis/v1/patient/{id}/insurance-cards",
      `/apis/v1/patient/${ids.v1Patient}/insurance-cards`,
      200,
      { body: { insurance_payer: { name: "Blue Cross" }, insurance_number: "XOF123", plan_start_date: "2025-01-01" } },
    );
    await call("GET /apis/v1/patient/{id}/insurance-cards", `/apis/v1/patient/${ids.v1Patient}/insurance-cards`, 200);
    const created = await call(
      "POST /apis/soap-enrichment/v1/patientCase",
      "/apis/soap-enrichment/v1/patientCase",
      200,
      {
        body: {
          patient_id: ids.v1Patient,
          case_title: "Low back pain",
          specialization: "MSK",
          frequency_and_duration: "2x/week for 6 weeks",
          referring_physician_details: { referring_physician_id: physicianId },
          icd_codes: [{ id: 31, code: "M54.50", description: "Low back pain, unspecified", revision: "ICD10" }],
          insurance_card_list: [{ insurance_card_id: card.data.insurance_card_id, insurance_card_type: "PRIMARY" }],
          visit_track_required: true,
          case_visit_limit: 12,
        },
      },
    );
    expect(typeof created.data.id).toBe("string");
    ids.caseId = created.data.service_case_id;
    const caseNumber = created.data.id;
    // Untracked visits (the SOAP note below books against it); no referring physician: the details are null.
    const bare = await call("POST /apis/soap-enrichment/v1/patientCase", "/apis/soap-enrichment/v1/patientCase", 200, {
      body: {
        patient_id: ids.v1Patient,
        case_title: "Neck pain",
        specialization: "MSK",
        icd_codes: [{ id: 88, code: "M54.2", description: "Cervicalgia", revision: "ICD10" }],
      },
    });
    expect(bare.data.referring_physician_details).toBeNull();
    ids.untrackedCase = bare.data.service_case_id;
    await call(
      "GET /apis/soap-enrichment/v1/patientCase/{id}",
      `/apis/soap-enrichment/v1/patientCase/${ids.caseId}`,
      200,
    );
    await call(
      "GET /apis/soap-enrichment/v1/patientCase",
      `/apis/soap-enrichment/v1/patientCase?patient_id=${ids.v1Patient}`,
      200,
    );
    await call(
      "POST /apis/soap-enrichment/v1/patientCase/{id}",
      `/apis/soap-enrichment/v1/patientCase/${caseNumber}`,
      200,
      { body: { body_pain_notes: "Worse in the morning" } },
    );
    await call("GET /apis/soap-enrichment/v1/patientCase/{id}", "/apis/soap-enrichment/v1/patientCase/999999", 404);
    const authorization = await call(
      "POST /apis/soap-enrichment/v1/authorization",
      "/apis/soap-enrichment/v1/authorization",
      200,
      {
        body: {
          service_case_id: ids.caseId,
          reference_number: "AUTH-2031-001",
          payer_name: "Blue Cross",
          effective_start_date: "2031-01-01",
          effective_end_date: "2031-12-31",
          authorized_visits: 12,
          cpt_code_authorization_details: [{ cpt_code: "97110", authorized_units: 24 }],
        },
      },
    );
    const authorizationId = authorization.data.authorization_id;
    await call(
      "GET /apis/soap-enrichment/v1/authorization/{id}",
      `/apis/soap-enrichment/v1/authorization/${authorizationId}`,
      200,
    );
    await call(
      "GET /apis/soap-enrichment/v1/authorization",
      `/apis/soap-enrichment/v1/authorization?service_case_id=${ids.caseId}`,
      200,
    );
    await call(
      "GET /apis/soap-enrichment/v1/authorization/search",
      "/apis/soap-enrichment/v1/authorization/search?patient_name=Lopez",
      200,
    );
    await call(
      "POST /apis/soap-enrichment/v1/authorization/{id}",
      `/apis/soap-enrichment/v1/authorization/${authorizationId}`,
      200,
      { body: { payer_id: "00621" } },
    );
    await call(
      "DELETE /apis/soap-enrichment/v1/authorization/{id}",
      `/apis/soap-enrichment/v1/authorization/${authorizationId}`,
      200,
    );
    expect(problems).toEqual([]);
  });

  it("v1 SOAP notes: create, forms, treatment sheet, sign, complete, claim, plan of care; catalog and ICD", async () => {
    await call("GET /apis/v1/organisation/settings", "/apis/v1/organisation/settings", 200);
    await call("POST /apis/v1/organisation/settings", "/apis/v1/organisation/settings", 200, {
      body: { auto_submit_billing: true },
      token: admin,
    });
    const catalog = await call("GET /apis/v1/treatment-catalog", "/apis/v1/treatment-catalog", 200);
    const exercise = catalog.data.find((c: { code: string }) => c.code === "97110");
    await call(
      "GET /apis/soap-enrichment/v1/bcs/icd/search",
      "/apis/soap-enrichment/v1/bcs/icd/search?q=low%20back",
      200,
    );
    slot += 1;
    const appointment = await call("POST /apis/v1/appointment", "/apis/v1/appointment", 200, {
      body: {
        doctor_id: 101,
        patient_id: ids.v1Patient,
        clinic_id: seed.clinic_ids[0],
        appointment_category: [seed.appointment_category_ids[0]],
        timestamp: DAY + slot * HOUR,
        end_timestamp: DAY + slot * HOUR + 2700,
        payment_mode: "INSURANCE_PAY",
        service_case_id: ids.untrackedCase,
      },
    });
    const appointmentId = appointment.data.appointment_id;
    await call(
      "GET /apis/v1/treatment-catalog/latest",
      `/apis/v1/treatment-catalog/latest?appointment_id=${appointmentId}&speciality=MSK&soap_note_type=INITIAL_SOAP`,
      200,
    );
    const created = await call("POST /apis/hep/v2/soap-context", "/apis/hep/v2/soap-context", 200, {
      body: { patient_id: ids.v1Patient, type: "INITIAL_SOAP", appointment_id: appointmentId },
    });
    expect(created.code).toBe(2000);
    const note = created.data;
    // Spec 7.1: a creation error comes with HTTP 200 and a v1 error body.
    const refused = await call("POST /apis/hep/v2/soap-context", "/apis/hep/v2/soap-context", 200, {
      body: { patient_id: ids.v1Patient, type: "FOLLOWUP_SOAP", appointment_id: 999999 },
    });
    expect(refused).toMatchObject({ data: null, error_code: expect.any(String) });
    await call("GET /apis/v1/soap-context/{context_id}", `/apis/v1/soap-context/${note.context_id}`, 200);
    await call("GET /apis/v1/soap-context", `/apis/v1/soap-context?patient_id=${ids.v1Patient}`, 200);
    await call("GET /apis/v1/soap-context/search", `/apis/v1/soap-context/search?appointment_id=${appointmentId}`, 200);
    const writeTo = async (n: Json, submissionId: string, partialResponse: Record<string, unknown>) => {
      const form = await call("GET /apis/v1/form-data/{submission_id}", `/apis/v1/form-data/${submissionId}`, 200);
      await call("POST /apis/v1/form-data/partial", "/apis/v1/form-data/partial", 200, {
        body: { submissionId, soapContextId: n.context_id, partialResponse, version: form.data.version + 1 },
      });
    };
    const write = (submissionId: string, partialResponse: Record<string, unknown>) =>
      writeTo(note, submissionId, partialResponse);
    await write(note.subjective_submission_id, { "response.Subjective.history.chief_complaint": "Low back pain" });
    await write(note.objective_submission_id, { "response.Objective.rom.lumbar_flexion": "40 degrees" });
    await write(note.plan_submission_id, { "response.Plan.plan.goals": ["Lift 10 kg without pain"] });
    const sheet = await call("POST /apis/v1/treatment-sheet", "/apis/v1/treatment-sheet", 200, {
      body: {
        patient_id: String(ids.v1Patient),
        soap_context_id: note.context_id,
        treatments: [{ treatment_class_id: exercise.treatment_class_id, duration: 20, units: 1 }],
      },
    });
    expect(typeof sheet.data.patient_id).toBe("string");
    await call("GET /apis/v1/treatment-sheet/{sheet_id}", `/apis/v1/treatment-sheet/${sheet.data.id}`, 200);
    await call("POST /apis/v1/treatment-sheet/{sheet_id}", `/apis/v1/treatment-sheet/${sheet.data.id}`, 200, {
      body: [{ treatment_class_id: exercise.treatment_class_id, duration: 25, units: 2 }],
    });
    await call("POST /apis/v1/soap-context/{context_id}/sign", `/apis/v1/soap-context/${note.context_id}/sign`, 200);
    await call(
      "GET /apis/v1/soap-context/{context_id}/signatures",
      `/apis/v1/soap-context/${note.context_id}/signatures`,
      200,
    );
    const done = await call(
      "POST /apis/v1/soap-context/{context_id}",
      `/apis/v1/soap-context/${note.context_id}`,
      200,
      {
        body: { completed: true, status: "COMPLETED", completed_at: null },
      },
    );
    expect(done.data).toMatchObject({ status: "COMPLETED", summary_status: expect.any(String) });
    await call(
      "GET /apis/v1/soap-context/{context_id}/history",
      `/apis/v1/soap-context/${note.context_id}/history`,
      200,
    );
    await call("GET /apis/v1/soap-context/{context_id}/claim", `/apis/v1/soap-context/${note.context_id}/claim`, 200);
    await call(
      "GET /apis/v1/plan-of-care/{plan_of_care_id}",
      `/apis/v1/plan-of-care/${done.data.plan_of_care_id}`,
      200,
    );
    // The plan's evaluation is dated 2031: a certification can be refused here, not recorded (medicare-therapy.test.ts records one).
    const certification = `/apis/v1/plan-of-care/${done.data.plan_of_care_id}/certification`;
    await call("POST /apis/v1/plan-of-care/{plan_of_care_id}/certification", certification, 400, {
      body: { signed_on: "1999-01-01", signed_by: "Dr. Lee Park, MD" },
    });
    await call("GET /apis/v1/soap-context/{context_id}", "/apis/v1/soap-context/no-such-note", 404);

    // The PDF summaries once rendered (the runtime's worker polls every 50 ms here), then a render again.
    const deadline = Date.now() + 15_000;
    let rendered = done.data;
    while (rendered.summary_status === "PENDING" && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      rendered = (await call("GET /apis/v1/soap-context/{context_id}", `/apis/v1/soap-context/${note.context_id}`, 200))
        .data;
    }
    expect(rendered.summary_status).toBe("READY");
    for (const file of ["summary.pdf", "short-summary.pdf"]) {
      const pdf = await rt.call("GET", `/apis/v1/soap-context/${note.context_id}/${file}`);
      expect(pdf.status).toBe(200);
      const documented = doc.paths[`/apis/v1/soap-context/{context_id}/${file}`].get.responses["200"].content;
      expect(Object.keys(documented)).toEqual([pdf.headers.get("content-type")]);
      checker.covered.add(`GET /apis/v1/soap-context/{context_id}/${file} 200`);
    }
    await call(
      "POST /apis/v1/soap-context/{context_id}/summary/render",
      `/apis/v1/soap-context/${note.context_id}/summary/render`,
      200,
    );

    // Co-signature: signed notes wait for the supervising physician (103), who returns one and co-signs it.
    await call("POST /apis/v1/organisation/settings", "/apis/v1/organisation/settings", 200, {
      body: { require_cosign: true },
      token: admin,
    });
    slot += 1;
    const second = await call("POST /apis/v1/appointment", "/apis/v1/appointment", 200, {
      body: {
        doctor_id: 101,
        patient_id: ids.v1Patient,
        clinic_id: seed.clinic_ids[0],
        appointment_category: [seed.appointment_category_ids[1]],
        timestamp: DAY + slot * HOUR,
        end_timestamp: DAY + slot * HOUR + 2700,
        payment_mode: "SELF_PAY",
        service_case_id: ids.untrackedCase,
      },
    });
    const followUp = (
      await call("POST /apis/hep/v2/soap-context", "/apis/hep/v2/soap-context", 200, {
        body: { patient_id: ids.v1Patient, type: "FOLLOWUP_SOAP", appointment_id: second.data.appointment_id },
      })
    ).data;
    await writeTo(followUp, followUp.subjective_submission_id, {
      "response.Subjective.history.chief_complaint": "Better",
    });
    const supervisor = await rt.token({ userId: 103 });
    const action = (name: string, expected: number, token?: string, body?: unknown) =>
      call(
        `POST /apis/v1/soap-context/{context_id}/${name}`,
        `/apis/v1/soap-context/${followUp.context_id}/${name}`,
        expected,
        { ...(token ? { token } : {}), ...(body ? { body } : {}) },
      );
    await action("sign", 409); // Objective is empty: NOTE_INCOMPLETE
    await writeTo(followUp, followUp.objective_submission_id, { "response.Objective.rom.cervical_rotation": "70" });
    expect((await action("sign", 200)).data.status).toBe("COSIGN");
    expect((await action("return", 200, supervisor, { reason: "Add the pain scale" })).data.status).toBe("REVISION");
    expect((await action("sign", 200)).data.status).toBe("COSIGN");
    expect((await action("cosign", 200, supervisor)).data.status).toBe("INCOMPLETED");
    await call("POST /apis/v1/treatment-catalog", "/apis/v1/treatment-catalog", 200, {
      body: { codes: [{ code: "97018", description: "Paraffin bath (our words)", timed: false }] },
      token: admin,
    });
    const feeCsv = { "content-type": "text/csv" };
    await call("POST /apis/v1/fee-schedule", "/apis/v1/fee-schedule", 200, {
      body: "year,code,allowed_amount\n2026,97018,5.12\n",
      token: admin,
      headers: feeCsv,
    });
    await call("POST /apis/v1/fee-schedule", "/apis/v1/fee-schedule", 400, {
      body: "year,code,allowed_amount\n2026,00000,5.12\n",
      token: admin,
      headers: feeCsv,
    });
    await call("POST /apis/v1/fee-schedule", "/apis/v1/fee-schedule", 415, { body: {}, token: admin });
    await call("GET /apis/v1/fee-schedule", "/apis/v1/fee-schedule?year=2026", 200);
    const elsewhere = `/apis/v1/patient/${ids.v1Patient}/therapy-thresholds/incurred-elsewhere`;
    await call("POST /apis/v1/patient/{patient_id}/therapy-thresholds/incurred-elsewhere", elsewhere, 200, {
      body: { service_date: "2026-02-03", bucket: "OT", amount: "120.00", description: "Hospital outpatient OT" },
    });
    await call("POST /apis/v1/patient/{patient_id}/therapy-thresholds/incurred-elsewhere", elsewhere, 400, {
      body: { service_date: "2026-02-30", bucket: "OT", amount: "-1" },
    });
    const year = await call(
      "GET /apis/v1/patient/{patient_id}/therapy-thresholds",
      `/apis/v1/patient/${ids.v1Patient}/therapy-thresholds?year=2026`,
      200,
    );
    expect(year.data.buckets.OT).toMatchObject({ incurred: "120.00", remaining_to_kx: "2360.00" });
    await call(
      "GET /apis/v1/patient/{patient_id}/therapy-thresholds",
      "/apis/v1/patient/999999/therapy-thresholds?year=2026",
      404,
    );
    expect(problems).toEqual([]);
  });

  it("v2 clinics, providers, staff, payers, appointment types and cancellation reasons", async () => {
    const clinics = await call("GET /v2/clinics", "/v2/clinics", 200);
    await call("GET /v2/clinics", "/v2/clinics?fields=name,address&status=all", 200);
    await call("GET /v2/clinics/{clinic_id}", `/v2/clinics/${clinics.data[0].id}`, 200);
    await call("GET /v2/clinics/{clinic_id}", `/v2/clinics/${clinics.data[0].id}?fields=time_zone`, 200);
    const clinic = await call("POST /v2/clinics", "/v2/clinics", 201, {
      body: { name: "Lakeview Physical Therapy", time_zone: "America/Chicago", tax_id: "361234567" },
    });
    await call("PATCH /v2/clinics/{clinic_id}", `/v2/clinics/${clinic.id}`, 200, {
      body: { phone: "+1-773-555-0110", address: { city: "Chicago" } },
    });
    await call("GET /v2/clinics/{clinic_id}", "/v2/clinics/999999", 404);

    const providers = await call("GET /v2/providers", "/v2/providers", 200);
    await call("GET /v2/providers", "/v2/providers?fields=last_name,clinic_ids", 200);
    await call("GET /v2/providers/{provider_id}", `/v2/providers/${providers.data[0].id}`, 200);
    const provider = await call("POST /v2/providers", "/v2/providers", 201, {
      body: { user_id: "9001", first_name: "Priya", last_name: "Raman", credentials: ["DPT"], clinic_ids: [clinic.id] },
    });
    await call("PATCH /v2/providers/{provider_id}", `/v2/providers/${provider.id}`, 200, {
      body: { supervising_user_id: "101", licence_state: "IL" },
    });
    const shift = await call(
      "POST /v2/providers/{provider_id}/schedules",
      `/v2/providers/${provider.id}/schedules`,
      201,
      {
        body: {
          clinic_id: clinic.id,
          weekdays: ["MO", "WE"],
          start_time: "09:00",
          end_time: "17:00",
          effective_from: "2027-01-04",
        },
      },
    );
    await call("POST /v2/providers/{provider_id}/schedules", `/v2/providers/${provider.id}/schedules`, 409, {
      body: {
        clinic_id: clinic.id,
        weekdays: ["MO"],
        start_time: "12:00",
        end_time: "13:00",
        effective_from: "2027-01-04",
      },
    });
    await call("GET /v2/providers/{provider_id}/schedules", `/v2/providers/${provider.id}/schedules?status=all`, 200);
    await call("GET /v2/schedules/{schedule_id}", `/v2/schedules/${shift.id}`, 200);
    const block = await call("POST /v2/providers/{provider_id}/blocks", `/v2/providers/${provider.id}/blocks`, 201, {
      body: { start: "2027-01-04T16:00:00Z", end: "2027-01-04T17:00:00Z", reason: "Team meeting" },
    });
    await call(
      "GET /v2/providers/{provider_id}/blocks",
      `/v2/providers/${provider.id}/blocks?from=2027-01-01T00:00:00Z`,
      200,
    );
    await call(
      "GET /v2/slots",
      `/v2/slots?provider_id=${provider.id}&clinic_id=${clinic.id}&slot_length=30&start_date=2027-01-04&days=3`,
      200,
    );
    await call("DELETE /v2/blocks/{block_id}", `/v2/blocks/${block.id}`, 200);
    await call("DELETE /v2/blocks/{block_id}", `/v2/blocks/${block.id}`, 404);

    const staff = await call("POST /v2/staff", "/v2/staff", 201, {
      body: { first_name: "Dana", last_name: "Whitfield", email: "dana@lakeview.example", roles: ["front_desk"] },
    });
    await call("GET /v2/staff", "/v2/staff", 200);
    await call("GET /v2/staff", "/v2/staff?fields=email", 200);
    await call("GET /v2/staff/{staff_id}", `/v2/staff/${staff.id}`, 200);
    await call("PATCH /v2/staff/{staff_id}", `/v2/staff/${staff.id}`, 200, { body: { phone: "+1-773-555-0123" } });
    const gone = await call("DELETE /v2/staff/{staff_id}", `/v2/staff/${staff.id}`, 200);
    expect(gone.deactivated_at).toEqual(expect.any(String));
    await call("POST /v2/staff", "/v2/staff", 409, {
      body: { first_name: "Dana", last_name: "W", email: "DANA@lakeview.example", roles: ["biller"] },
    });

    const payer = await call("POST /v2/payers", "/v2/payers", 201, {
      body: { payer_id: "LKV01", name: "Lakeview Health Plan", type: "commercial" },
      token: admin,
    });
    await call("GET /v2/payers", "/v2/payers", 200);
    await call("GET /v2/payers/{payer_ref}", `/v2/payers/${payer.id}`, 200);

    const physician = await call("POST /v2/referring-physicians", "/v2/referring-physicians", 201, {
      body: {
        first_name: "Maya",
        last_name: "Lindqvist",
        address1: "201 E Huron St",
        city: "Chicago",
        state: "IL",
        zip: "60611",
      },
    });
    await call("POST /v2/referring-physicians", "/v2/referring-physicians", 400, { body: { first_name: "X" } });
    await call("GET /v2/referring-physicians", "/v2/referring-physicians?query=lindq", 200);
    await call(
      "GET /v2/referring-physicians/{referring_physician_id}",
      `/v2/referring-physicians/${physician.id}`,
      200,
    );
    await call("GET /v2/referring-physicians/{referring_physician_id}", "/v2/referring-physicians/999999", 404);
    await call(
      "PATCH /v2/referring-physicians/{referring_physician_id}",
      `/v2/referring-physicians/${physician.id}`,
      200,
      {
        body: { fax_number: "312-555-0100" },
      },
    );

    const insured = await call("POST /v2/patients", "/v2/patients", 201, {
      body: { first_name: "Ines", last_name: "Coverdale", date_of_birth: "1984-09-09" },
    });
    const coverages = `/v2/patients/${insured.id}/coverages`;
    const coverage = await call("POST /v2/patients/{patient_id}/coverages", coverages, 201, {
      body: {
        payer_ref: payer.id,
        member_id: "LKV-1001",
        group_number: "G-77",
        priority: "primary",
        subscriber: { relationship: "child", first_name: "Ana", last_name: "Coverdale", date_of_birth: "2012-01-01" },
      },
    });
    await call("POST /v2/patients/{patient_id}/coverages", coverages, 400, { body: { member_id: "x" } });
    await call("GET /v2/patients/{patient_id}/coverages", coverages, 200);
    await call("GET /v2/patients/{patient_id}/coverages/{coverage_id}", `${coverages}/${coverage.id}`, 200);
    await call("GET /v2/patients/{patient_id}/coverages/{coverage_id}", `${coverages}/999999`, 404);
    await call("PATCH /v2/patients/{patient_id}/coverages/{coverage_id}", `${coverages}/${coverage.id}`, 200, {
      body: { plan_name: "Lakeview Gold" },
    });
    const pointed = await call("POST /v2/patients/{patient_id}/coverages", coverages, 201, {
      body: { payer_ref: payer.id, member_id: "LKV-2002", priority: "secondary" },
    });
    const opened = await call("POST /v2/cases", "/v2/cases", 201, {
      body: {
        patient_id: insured.id,
        case_title: "Knee",
        specialization: seed.specializations[0],
        primary_coverage_id: pointed.id,
        primary_referring_physician_id: physician.id,
      },
    });
    await call("POST /v2/cases", "/v2/cases", 400, { body: { patient_id: insured.id, case_title: "" } });
    await call("GET /v2/cases/{service_case_id}", `/v2/cases/${opened.id}`, 200);
    await call("GET /v2/cases/{service_case_id}", "/v2/cases/SERVICE_CASE_999999", 404);
    await call("PATCH /v2/cases/{service_case_id}", `/v2/cases/${opened.id}`, 200, {
      body: { secondary_coverage_id: coverage.id, case_visit_limit: 12 },
    });
    await call("PATCH /v2/cases/{service_case_id}", `/v2/cases/${opened.id}`, 400, {
      body: { secondary_coverage_id: pointed.id },
    });
    await call("DELETE /v2/patients/{patient_id}/coverages/{coverage_id}", `${coverages}/${pointed.id}`, 409);
    // This runtime has no clearinghouse: the real-time check is refused; results are recorded by hand on v1.
    await call(
      "POST /v2/patients/{patient_id}/coverages/{coverage_id}/eligibility-checks",
      `${coverages}/${pointed.id}/eligibility-checks`,
      409,
    );
    const manual = `/apis/v1/patient/${insured.id}/insurance-cards/${pointed.id}/eligibility-checks`;
    const v1Eligibility = "/apis/v1/patient/{patient_id}/insurance-cards/{coverage_id}/eligibility-checks";
    await call(`POST ${v1Eligibility}`, manual, 200, {
      body: { active: true, benefits: { PT: { copay: 20, visits: { limit: 12, used: 0, remaining: 12 } } } },
    });
    await call(`POST ${v1Eligibility}`, manual, 400, { body: { active: "yes" } });
    await call(`GET ${v1Eligibility}`, manual, 200);
    const auths = `/v2/cases/${opened.id}/coverages/${pointed.id}/authorizations`;
    const auth = await call("POST /v2/cases/{service_case_id}/coverages/{coverage_id}/authorizations", auths, 201, {
      body: {
        reference_number: "LKV-A-1",
        effective_start_date: "2031-01-01",
        effective_end_date: "2031-12-31",
        authorized_visits: 12,
        cpt_codes: [{ code: "97110", authorized_units: 24 }],
      },
    });
    await call("POST /v2/cases/{service_case_id}/coverages/{coverage_id}/authorizations", auths, 400, {
      body: {
        reference_number: "x",
        effective_start_date: "2031-02-01",
        effective_end_date: "2031-01-01",
        authorized_visits: 1,
      },
    });
    await call("GET /v2/cases/{service_case_id}/coverages/{coverage_id}/authorizations", auths, 200);
    await call("GET /v2/cases/{service_case_id}/authorizations", `/v2/cases/${opened.id}/authorizations`, 200);
    const oneAuth = "/v2/cases/{service_case_id}/coverages/{coverage_id}/authorizations/{authorization_id}";
    await call(`GET ${oneAuth}`, `${auths}/${auth.id}`, 200);
    await call(`GET ${oneAuth}`, `${auths}/999999`, 404);
    await call(`PATCH ${oneAuth}`, `${auths}/${auth.id}`, 200, { body: { authorized_visits: 10 } });
    await call(`DELETE ${oneAuth}`, `${auths}/${auth.id}`, 204);
    await call(`DELETE ${oneAuth}`, `${auths}/${auth.id}`, 404);
    await call("PATCH /v2/cases/{service_case_id}", `/v2/cases/${opened.id}`, 200, {
      body: { secondary_coverage_id: null },
    });
    await call("DELETE /v2/patients/{patient_id}/coverages/{coverage_id}", `${coverages}/${coverage.id}`, 204);
    await call("DELETE /v2/patients/{patient_id}/coverages/{coverage_id}", `${coverages}/${coverage.id}`, 404);

    const types = await call("GET /v2/appointment-types", "/v2/appointment-types", 200);
    await call("GET /v2/appointment-types/{appointment_type_id}", `/v2/appointment-types/${types.data[0].id}`, 200);
    const type = await call("POST /v2/appointment-types", "/v2/appointment-types", 201, {
      body: { name: "Dry needling", type: "IN_PERSON", duration_minutes: 30 },
      token: admin,
    });
    await call("PATCH /v2/appointment-types/{appointment_type_id}", `/v2/appointment-types/${type.id}`, 200, {
      body: { colour: "#2266AA", active: false },
      token: admin,
    });
    await call("GET /v2/cancellation-reasons", "/v2/cancellation-reasons?status=all", 200);
    const reason = await call("POST /v2/cancellation-reasons", "/v2/cancellation-reasons", 201, {
      body: { reason_key: "WEATHER", reason_label: "Severe weather" },
      token: admin,
    });
    await call(
      "PATCH /v2/cancellation-reasons/{cancellation_reason_id}",
      `/v2/cancellation-reasons/${reason.id}`,
      200,
      {
        body: { cancellation_fee: 15 },
        token: admin,
      },
    );

    const visit = await call("POST /v2/appointment-types", "/v2/appointment-types", 201, {
      body: { name: "Follow-up visit", type: "IN_PERSON", duration_minutes: 30 },
      token: admin,
    });
    const patient = await call("POST /v2/patients", "/v2/patients", 201, {
      body: { first_name: "Rosa", last_name: "Okafor", date_of_birth: "1979-04-02" },
    });
    const booking = {
      patient_id: patient.id,
      provider_id: provider.id,
      clinic_id: clinic.id,
      appointment_type_id: visit.id,
      payment_mode: "SELF_PAY",
    };
    const booked = await call("POST /v2/appointments", "/v2/appointments", 201, {
      body: { ...booking, slot_start: "2027-01-04T09:00:00-06:00" },
    });
    await call("POST /v2/appointments", "/v2/appointments", 409, {
      body: { ...booking, slot_start: "2027-01-04T09:00:00-06:00" },
    });
    await call("POST /v2/appointments", "/v2/appointments", 400, { body: { ...booking } });
    await call("GET /v2/appointments", `/v2/appointments?provider_id=${provider.id}&expand=patient,provider`, 200);
    await call("GET /v2/appointments", "/v2/appointments?provider_id=999999", 404);
    await call("GET /v2/appointments/{appointment_id}", `/v2/appointments/${booked.id}?fields=status`, 200);
    await call("GET /v2/appointments/{appointment_id}", "/v2/appointments/999999", 404);
    await call("POST /v2/appointments/{appointment_id}/check-out", `/v2/appointments/${booked.id}/check-out`, 409);
    await call("POST /v2/appointments/{appointment_id}/check-in", `/v2/appointments/${booked.id}/check-in`, 200);
    await call("POST /v2/appointments/{appointment_id}/check-out", `/v2/appointments/${booked.id}/check-out`, 200);
    const second = await call("POST /v2/appointments", "/v2/appointments", 201, {
      body: { ...booking, start: "2027-01-06T10:00:00-06:00" },
    });
    const waiting = await call("POST /v2/waitlist-requests", "/v2/waitlist-requests", 201, {
      body: {
        patient_id: patient.id,
        appointment_type_id: visit.id,
        payment_mode: "SELF_PAY",
        provider_ids: [provider.id],
        preferred_days: ["WE"],
        time_windows: [{ start: "08:00", end: "12:00" }],
      },
    });
    await call("POST /v2/waitlist-requests", "/v2/waitlist-requests", 400, {
      body: { patient_id: patient.id, appointment_type_id: visit.id },
    });
    await call("GET /v2/waitlist-requests", "/v2/waitlist-requests?status=waiting,offered", 200);
    await call("GET /v2/waitlist-requests/{waitlist_request_id}", "/v2/waitlist-requests/999999", 404);
    await call("PATCH /v2/waitlist-requests/{waitlist_request_id}", `/v2/waitlist-requests/${waiting.id}`, 200, {
      body: { priority: "high" },
    });
    await call(
      "POST /v2/waitlist-requests/{waitlist_request_id}/accept-offer",
      `/v2/waitlist-requests/${waiting.id}/accept-offer`,
      409,
    );
    await call("POST /v2/appointments/{appointment_id}/cancel", `/v2/appointments/${second.id}/cancel`, 200, {
      body: { reason_key: "WEATHER" },
    });
    // The freed slot becomes an offer (a background job); then it is accepted.
    for (let tries = 0; tries < 200; tries++) {
      const read = await call(
        "GET /v2/waitlist-requests/{waitlist_request_id}",
        `/v2/waitlist-requests/${waiting.id}`,
        200,
      );
      if (read.status === "offered") break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await call(
      "POST /v2/waitlist-requests/{waitlist_request_id}/accept-offer",
      `/v2/waitlist-requests/${waiting.id}/accept-offer`,
      201,
    );
    const other = await call("POST /v2/waitlist-requests", "/v2/waitlist-requests", 201, {
      body: { patient_id: patient.id, appointment_type_id: visit.id, payment_mode: "CASH" },
    });
    await call("DELETE /v2/waitlist-requests/{waitlist_request_id}", `/v2/waitlist-requests/${other.id}`, 200);
    await call("DELETE /v2/waitlist-requests/{waitlist_request_id}", `/v2/waitlist-requests/${other.id}`, 409);
    await call("POST /v2/appointments/{appointment_id}/cancel", `/v2/appointments/${second.id}/cancel`, 409, {
      body: { reason_key: "WEATHER" },
    });
    await call("POST /v2/appointments/{appointment_id}/check-in", "/v2/appointments/999999/check-in", 404);
    expect(problems).toEqual([]);
  });

  it("access: API clients, OAuth tokens and metadata, the organisation, platform organisations, the audit trail", async () => {
    const client = await call("POST /v2/api-clients", "/v2/api-clients", 201, {
      body: { name: "Front desk kiosk", scopes: ["patients:read", "appointments:write"] },
      token: admin,
    });
    await call("GET /v2/api-clients", "/v2/api-clients", 200, { token: admin });
    await call("GET /v2/api-clients/{api_client_id}", `/v2/api-clients/${client.id}`, 200, { token: admin });
    await call("PATCH /v2/api-clients/{api_client_id}", `/v2/api-clients/${client.id}`, 200, {
      body: { user_id: "101" },
      token: admin,
    });
    const rotated = await call(
      "POST /v2/api-clients/{api_client_id}/rotate-secret",
      `/v2/api-clients/${client.id}/rotate-secret`,
      200,
      { body: { grace_period_seconds: 60 }, token: admin },
    );
    const basic = (secret: string) =>
      `Basic ${Buffer.from(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(secret)}`).toString("base64")}`;
    const form = { "content-type": "application/x-www-form-urlencoded" };
    await call("POST /oauth/token", "/oauth/token", 200, {
      body: "grant_type=client_credentials",
      token: null,
      headers: { ...form, authorization: basic(rotated.client_secret) },
    });
    await call("POST /oauth/token", "/oauth/token", 401, {
      body: "grant_type=client_credentials",
      token: null,
      headers: { ...form, authorization: basic("wrong") },
    });
    await call("POST /oauth/token", "/oauth/token", 400, {
      body: "grant_type=password",
      token: null,
      headers: { ...form, authorization: basic(rotated.client_secret) },
    });
    // Single sign-on: the client registers a redirect URI; a user's token launches it; the code is exchanged.
    const redirectUri = "https://kiosk.example.com/sso/callback";
    await call("PATCH /v2/api-clients/{api_client_id}", `/v2/api-clients/${client.id}`, 200, {
      body: { redirect_uris: [redirectUri] },
      token: admin,
    });
    const verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"; // RFC 7636 appendix B's pair
    const launchBody = {
      client_id: client.client_id,
      redirect_uri: redirectUri,
      code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
      code_challenge_method: "S256",
    };
    const launched = await call("POST /apis/sso/launch", "/apis/sso/launch", 200, {
      body: launchBody,
      token: await rt.token({ userId: 101, scope: "patients:read" }),
    });
    await call("POST /apis/sso/launch", "/apis/sso/launch", 400, {
      body: { ...launchBody, redirect_uri: "https://elsewhere.example.com/cb" },
      token: await rt.token({ userId: 101, scope: "patients:read" }),
    });
    const exchange = () =>
      new URLSearchParams({
        grant_type: "authorization_code",
        code: new URL(launched.url).searchParams.get("code") as string,
        redirect_uri: redirectUri,
        code_verifier: verifier,
      }).toString();
    await call("POST /oauth/token", "/oauth/token", 200, {
      body: exchange(),
      token: null,
      headers: { ...form, authorization: basic(rotated.client_secret) },
    });
    await call("POST /oauth/token", "/oauth/token", 400, {
      body: exchange(),
      token: null,
      headers: { ...form, authorization: basic(rotated.client_secret) },
    });
    // The organisation's own clearinghouse: set, shown, tested (nothing answers on port 1), removed.
    const clearinghouse = {
      url: "https://127.0.0.1:1/realtime",
      username: "lakeview",
      password: "s3cret",
      submitter_id: "LAKEVIEW01",
      receiver_id: "CLEARHOUSE",
      provider_npi: "1234567893",
      provider_name: "Lakeview Physical Therapy",
    };
    await call("PUT /v2/organisation/clearinghouse", "/v2/organisation/clearinghouse", 200, {
      body: clearinghouse,
      token: admin,
    });
    await call("PUT /v2/organisation/clearinghouse", "/v2/organisation/clearinghouse", 400, {
      body: { ...clearinghouse, provider_npi: "1234567890" },
      token: admin,
    });
    await call("GET /v2/organisation/clearinghouse", "/v2/organisation/clearinghouse", 200, { token: admin });
    await call("POST /v2/organisation/clearinghouse/test", "/v2/organisation/clearinghouse/test", 200, {
      body: { payer_id: "60054" },
      token: admin,
    });
    await call("DELETE /v2/organisation/clearinghouse", "/v2/organisation/clearinghouse", 200, { token: admin });
    await call("DELETE /v2/organisation/clearinghouse", "/v2/organisation/clearinghouse", 404, { token: admin });
    await call("POST /v2/organisation/clearinghouse/test", "/v2/organisation/clearinghouse/test", 409, {
      token: admin,
    });
    await call("GET /.well-known/jwks.json", "/.well-known/jwks.json", 200, { token: null });
    await call("GET /.well-known/oauth-authorization-server", "/.well-known/oauth-authorization-server", 200, {
      token: null,
    });
    await call("DELETE /v2/api-clients/{api_client_id}", `/v2/api-clients/${client.id}`, 200, { token: admin });
    await call("GET /v2/organisation", "/v2/organisation", 200);
    const platform = await rt.token({ platform: true, scope: "platform:admin" });
    const org = await call("POST /v2/organisations", "/v2/organisations", 201, {
      body: { name: "Lakeside Physical Therapy", plan: "professional", time_zone: "America/Chicago" },
      token: platform,
    });
    await call("GET /v2/organisations", "/v2/organisations", 200, { token: platform });
    await call("GET /v2/organisations/{organisation_id}", `/v2/organisations/${org.id}`, 200, { token: platform });
    await call("PATCH /v2/organisations/{organisation_id}", `/v2/organisations/${org.id}`, 200, {
      body: { audit_reads: true },
      token: platform,
    });
    await call("GET /v2/audit-events", "/v2/audit-events", 200, { token: admin });
    await call("GET /v2/audit-events", "/v2/audit-events", 403);
    expect(problems).toEqual([]);
  });

  it("webhooks: catalog, subscriptions, keys, a test delivery, deliveries, the organisation profile", async () => {
    const base = "/apis/v1/webhooks";
    await call("GET /apis/v1/webhooks/event-types", `${base}/event-types`, 200);
    const created = await call("POST /apis/v1/webhooks/subscriptions", `${base}/subscriptions`, 201, {
      body: { name: "EHR sync", event_types: ["patient.created"], notification_url: `${receiver.url}/hooks/a` },
    });
    expect(created).not.toHaveProperty("standard_webhooks_secret");
    const standard = await call("POST /apis/v1/webhooks/subscriptions", `${base}/subscriptions`, 201, {
      body: {
        name: "Standard",
        event_types: ["appointment.created"],
        notification_url: `${receiver.url}/hooks/b`,
        signature_format: "standard",
      },
    });
    expect(standard.standard_webhooks_secret).toMatch(/^whsec_/);
    const id = created.subscription.id;
    await call("GET /apis/v1/webhooks/subscriptions", `${base}/subscriptions`, 200);
    await call("GET /apis/v1/webhooks/subscriptions/{id}", `${base}/subscriptions/${id}`, 200);
    await call("PATCH /apis/v1/webhooks/subscriptions/{id}", `${base}/subscriptions/${id}`, 200, {
      body: { name: "EHR sync (renamed)" },
    });
    await call("POST /apis/v1/webhooks/subscriptions/{id}/subscribe", `${base}/subscriptions/${id}/subscribe`, 200, {
      body: { event_types: ["patient.updated"] },
    });
    await call(
      "POST /apis/v1/webhooks/subscriptions/{id}/unsubscribe",
      `${base}/subscriptions/${id}/unsubscribe`,
      200,
      { body: { event_types: ["patient.updated"] } },
    );
    await call(
      "POST /apis/v1/webhooks/subscriptions/{id}/rotate-secret",
      `${base}/subscriptions/${id}/rotate-secret`,
      200,
      { body: { grace_period_seconds: 60 } },
    );
    await call("POST /apis/v1/webhooks/subscriptions/{id}/test", `${base}/subscriptions/${id}/test`, 200);
    receiver.respondWith(500);
    await call("POST /apis/v1/webhooks/subscriptions/{id}/test", `${base}/subscriptions/${id}/test`, 200);
    // A real event: a new patient, delivered by the runtime's worker; then its delivery with the attempt log.
    await call("POST /v2/patients", "/v2/patients", 201, {
      body: { first_name: "Hook", last_name: "Event", date_of_birth: "1980-05-06" },
    });
    const deadline = Date.now() + 10_000;
    let deliveries = await call(
      "GET /apis/v1/webhooks/subscriptions/{id}/deliveries",
      `${base}/subscriptions/${id}/deliveries`,
      200,
    );
    while (deliveries.deliveries[0]?.status !== "delivered" && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      deliveries = await call(
        "GET /apis/v1/webhooks/subscriptions/{id}/deliveries",
        `${base}/subscriptions/${id}/deliveries?status=delivered`,
        200,
      );
    }
    const delivered = deliveries.deliveries[0];
    expect(delivered.attempt_log.length).toBeGreaterThan(0);
    // Only a failed delivery is retried: a delivered one is 409.
    await call(
      "POST /apis/v1/webhooks/subscriptions/{id}/deliveries/{delivery_id}/retry",
      `${base}/subscriptions/${id}/deliveries/${delivered.id}/retry`,
      409,
    );
    await call("GET /apis/v1/webhooks/organisations", `${base}/organisations`, 200);
    await call("PATCH /apis/v1/webhooks/organisations", `${base}/organisations`, 200, { body: { is_active: true } });
    await call("DELETE /apis/v1/webhooks/subscriptions/{id}", `${base}/subscriptions/${standard.subscription.id}`, 204);
    await call("GET /apis/v1/webhooks/subscriptions/{id}", `${base}/subscriptions/999999`, 404);
    expect(problems).toEqual([]);
  });

  it("notifications: the VAPID key, devices, deliver, the notification, the inbox", async () => {
    const base = "/apis/v1/notifications";
    await call("GET /apis/v1/notifications/vapid-public-key", `${base}/vapid-public-key`, 200, { token: null });
    const browser = push.subscribe();
    const device = { user_id: "patient-42", user_type: "PATIENT", endpoint: browser.endpoint, keys: browser.keys };
    const registered = await call("POST /apis/v1/notifications/devices", `${base}/devices`, 201, { body: device });
    await call("POST /apis/v1/notifications/devices", `${base}/devices`, 200, { body: { ...device, label: "Pixel" } });
    await call("GET /apis/v1/notifications/devices", `${base}/devices?user_type=PATIENT&user_id=patient-42`, 200);
    await call("GET /apis/v1/notifications/devices/{device_id}", `${base}/devices/${registered.device_id}`, 200);
    const accepted = await call("POST /apis/v1/notifications/deliver", `${base}/deliver`, 202, {
      body: {
        recipient: { user_id: "patient-42", user_type: "PATIENT" },
        notification: { title: "Your appointment moved", body: null, link: "type=appointment&appointment_id=7" },
        idempotency_key: "move-7",
      },
    });
    const id = accepted.notification_id;
    // Until the push is attempted, then with the attempt log.
    await call("GET /apis/v1/notifications/{notification_id}", `${base}/${id}`, 200);
    // The push's row exists (pending) from the start; its attempt is recorded once the push service has answered:
    // polled until the notification is delivered, then the one attempt is in the log.
    const notification = () => call("GET /apis/v1/notifications/{notification_id}", `${base}/${id}`, 200);
    await expect.poll(async () => (await notification()).delivery_status).toBe("delivered");
    const delivered = await notification();
    expect(delivered.deliveries).toEqual([
      expect.objectContaining({ status: "delivered", attempts: 1, attempt_log: [expect.any(Object)] }),
    ]);
    expect(push.received).toHaveLength(1);
    await call("GET /apis/v1/notifications/inbox", `${base}/inbox?user_type=PATIENT&user_id=patient-42`, 200);
    await call("POST /apis/v1/notifications/{notification_id}/read", `${base}/${id}/read`, 200);
    await call("POST /apis/v1/notifications/inbox/read-all", `${base}/inbox/read-all`, 200, {
      body: { user_id: "patient-42", user_type: "PATIENT" },
    });
    await call("DELETE /apis/v1/notifications/devices/{device_id}", `${base}/devices/${registered.device_id}`, 204);
    await call("GET /apis/v1/notifications/{notification_id}", `${base}/ntf_missing`, 404);
    expect(problems).toEqual([]);
  });

  it("v1 patient documents: upload, list, read, update, download whole and by range, delete, settings", async () => {
    const patient = seed.patient_ids[0] as number;
    const base = `/apis/v1/patient/${patient}/documents`;
    const form = multipartBody([
      { name: "category", value: "referral" },
      { name: "title", value: "Referral" },
      { name: "file", value: "Referral: left knee, 8 visits.\n", fileName: "referral.txt", contentType: "text/plain" },
    ]);
    const upload = "POST /apis/v1/patient/{patient_id}/documents";
    const created = await call(upload, base, 200, {
      body: form.body.toString("latin1"),
      headers: { "content-type": form.contentType },
    });
    // No scanner here: served at once, and said so.
    expect(created.data).toMatchObject({ status: "available", scan: { result: "not_configured" } });
    const one = `${base}/${created.data.id}`;
    const noFile = multipartBody([{ name: "title", value: "No file" }]);
    await call(upload, base, 400, {
      body: noFile.body.toString("latin1"),
      headers: { "content-type": noFile.contentType },
    });
    await call(upload, `/apis/v1/patient/999999/documents`, 404, {
      body: form.body.toString("latin1"),
      headers: { "content-type": form.contentType },
    });
    await call("GET /apis/v1/patient/{patient_id}/documents", `${base}?category=referral`, 200);
    await call("GET /apis/v1/patient/{patient_id}/documents/{document_id}", one, 200);
    await call("GET /apis/v1/patient/{patient_id}/documents/{document_id}", `${base}/999999`, 404);
    await call("POST /apis/v1/patient/{patient_id}/documents/{document_id}", one, 200, {
      body: { title: "Referral (knee)" },
    });
    await call("POST /apis/v1/patient/{patient_id}/documents/{document_id}", one, 400, { body: { category: "nope" } });
    const download = "GET /apis/v1/patient/{patient_id}/documents/{document_id}/content";
    const documented = doc.paths["/apis/v1/patient/{patient_id}/documents/{document_id}/content"].get.responses;
    for (const [status, headers] of [
      [200, {}],
      [206, { range: "bytes=0-7" }],
    ] as const) {
      const res = await rt.call("GET", `${one}/content`, { headers });
      expect(res.status).toBe(status);
      expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(Object.keys(documented[String(status)].content)).toEqual(["*/*"]);
      checker.covered.add(`${download} ${status}`);
    }
    await call(download, `${one}/content`, 416, { headers: { range: "bytes=900-" } });
    await call("GET /apis/v1/document-settings", "/apis/v1/document-settings", 200);
    await call("POST /apis/v1/document-settings", "/apis/v1/document-settings", 200, {
      body: { retention_days: 14 },
      token: admin,
    });
    await call("POST /apis/v1/document-settings", "/apis/v1/document-settings", 403, { body: { retention_days: 1 } });
    await call("DELETE /apis/v1/patient/{patient_id}/documents/{document_id}", one, 200);
    await call("DELETE /apis/v1/patient/{patient_id}/documents/{document_id}", one, 404);
  });

  it("v1 tasks: create, list, read, update, refuse, comment, settings", async () => {
    const patient = seed.patient_ids[0] as number;
    const doctor = seed.provider_ids[1] as number;
    const created = await call("POST /apis/v1/tasks", "/apis/v1/tasks", 200, {
      body: {
        title: "Call back",
        patient_id: patient,
        assignee: { type: "provider", id: doctor },
        priority: "high",
        due_at: "2031-12-01T17:00:00Z",
      },
    });
    const one = `/apis/v1/tasks/${created.data.id}`;
    await call("POST /apis/v1/tasks", "/apis/v1/tasks", 400, { body: { title: "x", due_at: "soon" } });
    await call("POST /apis/v1/tasks", "/apis/v1/tasks", 400, { body: { title: "x", patient_id: 999999 } });
    await call(
      "GET /apis/v1/tasks",
      `/apis/v1/tasks?assignee=provider:${doctor}&status=open,in_progress&sort=-priority`,
      200,
    );
    await call("GET /apis/v1/tasks", "/apis/v1/tasks?status=someday", 400);
    await call("GET /apis/v1/tasks/{task_id}", one, 200);
    await call("GET /apis/v1/tasks/{task_id}", "/apis/v1/tasks/999999", 404);
    await call("POST /apis/v1/tasks/{task_id}", one, 200, { body: { status: "done" } });
    await call("POST /apis/v1/tasks/{task_id}", one, 409, { body: { status: "done" } });
    await call("POST /apis/v1/tasks/{task_id}", one, 409, { body: { title: "Closed" } });
    await call("POST /apis/v1/tasks/{task_id}", one, 400, { body: { priority: "asap" } });
    await call("POST /apis/v1/tasks/{task_id}/comments", `${one}/comments`, 200, { body: { body: "Done by phone." } });
    await call("POST /apis/v1/tasks/{task_id}/comments", `${one}/comments`, 400, { body: { body: "" } });
    await call("GET /apis/v1/tasks/{task_id}/comments", `${one}/comments`, 200);
    await call("GET /apis/v1/task-settings", "/apis/v1/task-settings", 200);
    await call("POST /apis/v1/task-settings", "/apis/v1/task-settings", 200, {
      token: admin,
      body: { rules: { document_quarantined: { enabled: false } } },
    });
    await call("POST /apis/v1/task-settings", "/apis/v1/task-settings", 403, {
      body: { rules: { document_quarantined: { enabled: true } } },
    });
    expect(problems).toEqual([]);
  });

  it("v1 doctors: create, list, read, update, refuse", async () => {
    const clinic = seed.clinic_ids[0] as number;
    const created = await call("POST /apis/v1/doctor", "/apis/v1/doctor", 200, {
      body: { doctor_id: 7201, first_name: "Sam", last_name: "Ortiz", npi: "1456789019", clinic_ids: [clinic] },
    });
    expect(created.data.doctor_id).toBe(7201);
    await call("POST /apis/v1/doctor", "/apis/v1/doctor", 409, {
      body: { doctor_id: 7201, first_name: "Sam", last_name: "Ortiz" },
    });
    await call("POST /apis/v1/doctor", "/apis/v1/doctor", 400, {
      body: { doctor_id: 7202, first_name: "Sam", last_name: "Ortiz", npi: "1456789018" },
    });
    await call("GET /apis/v1/doctors", `/apis/v1/doctors?clinic_id=${clinic}&active=all`, 200);
    await call("GET /apis/v1/doctor/{doctor_id}", "/apis/v1/doctor/7201", 200);
    await call("GET /apis/v1/doctor/{doctor_id}", "/apis/v1/doctor/999999", 404);
    await call("POST /apis/v1/doctor/{doctor_id}", "/apis/v1/doctor/7201", 200, { body: { active: false } });
    await call("POST /apis/v1/doctor/{doctor_id}", "/apis/v1/doctor/7201", 400, { body: { npi: "123" } });
    expect(problems).toEqual([]);
  });

  it("v1 blocks: create, list occurrences, modify with each scope, delete with a scope, refuse", async () => {
    const doctor = seed.provider_ids[0] as number;
    const created = await call("POST /apis/v1/doctor/{doctor_id}/blocks", `/apis/v1/doctor/${doctor}/blocks`, 200, {
      body: {
        start: "2031-03-05T12:00:00-06:00",
        end: "2031-03-05T13:00:00-06:00",
        reason: "Lunch",
        time_zone: "America/Chicago",
        rrule: "FREQ=WEEKLY;BYDAY=WE;COUNT=8",
      },
    });
    const id = created.data.block.block_id;
    await call("POST /apis/v1/doctor/{doctor_id}/blocks", `/apis/v1/doctor/${doctor}/blocks`, 400, {
      body: {
        start: "2031-03-05T12:00:00Z",
        end: "2031-03-05T13:00:00Z",
        reason: "x",
        time_zone: "UTC",
        rrule: "FREQ=DAILY",
      },
    });
    await call(
      "GET /apis/v1/blocks",
      `/apis/v1/blocks?doctor_id=${doctor}&from=2031-03-01T00:00:00Z&to=2031-04-01T00:00:00Z`,
      200,
    );
    await call("POST /apis/v1/blocks/{block_id}/modify", `/apis/v1/blocks/${id}/modify`, 200, {
      body: { scope: "this", occurrence_date: "2031-03-12", start_time: "13:00", end_time: "14:00" },
    });
    const split = await call("POST /apis/v1/blocks/{block_id}/modify", `/apis/v1/blocks/${id}/modify`, 200, {
      body: { scope: "this_and_following", occurrence_date: "2031-03-26", reason: "Team lunch" },
    });
    expect(split.data.created_block).not.toBeNull();
    await call("POST /apis/v1/blocks/{block_id}/modify", `/apis/v1/blocks/${id}/modify`, 400, {
      body: { scope: "this", occurrence_date: "2031-03-13", reason: "x" },
    });
    await call("DELETE /apis/v1/blocks/{block_id}", `/apis/v1/blocks/${id}?scope=this&occurrence_date=2031-03-19`, 200);
    await call("DELETE /apis/v1/blocks/{block_id}", `/apis/v1/blocks/${id}?scope=all`, 200);
    await call("DELETE /apis/v1/blocks/{block_id}", `/apis/v1/blocks/${id}?scope=all`, 404);
    expect(problems).toEqual([]);
  });

  it("FHIR R4: the CapabilityStatement, each type searched and read, OperationOutcomes", async () => {
    const capabilities = await call("GET /fhir/R4/metadata", "/fhir/R4/metadata", 200, { token: null });
    await call("GET /.well-known/smart-configuration", "/.well-known/smart-configuration", 200, { token: null });
    const payer = await call("POST /v2/payers", "/v2/payers", 201, {
      body: { payer_id: "FHIR1", name: "Prairie Health", type: "commercial" },
      token: admin,
    });
    await call("POST /v2/patients/{patient_id}/coverages", `/v2/patients/${seed.patient_ids[0]}/coverages`, 201, {
      body: { payer_ref: payer.id, member_id: "PH-100", priority: "tertiary" },
    });
    // Schedules by practitioner, slots by schedule: Priya Raman's shift from the v2 providers test (Mondays 2027).
    const priya = (await call("GET /fhir/R4/Practitioner", "/fhir/R4/Practitioner?family=raman", 200)).entry[0]
      .resource;
    const shifts = await call("GET /fhir/R4/Schedule", `/fhir/R4/Schedule?actor=Practitioner/${priya.id}`, 200);
    const letter = multipartBody([
      { name: "category", value: "referral" },
      { name: "title", value: "Referral" },
      { name: "file", value: "Referral: right shoulder.\n", fileName: "referral.txt", contentType: "text/plain" },
    ]);
    const uploadPath = `/apis/v1/patient/${seed.patient_ids[1]}/documents`;
    await call("POST /apis/v1/patient/{patient_id}/documents", uploadPath, 200, {
      body: letter.body.toString("latin1"),
      headers: { "content-type": letter.contentType },
    });
    const scoped: Record<string, string> = {
      DocumentReference: `&patient=${seed.patient_ids[1]}`,
      Coverage: `&patient=${seed.patient_ids[0]}`,
      Condition: `&patient=${ids.v1Patient}`,
      Schedule: `&actor=Practitioner/${priya.id}`,
      Slot: `&schedule=Schedule/${shifts.entry[0].resource.id}&start=ge2027-01-04&start=lt2027-01-11`,
    };
    for (const type of capabilities.rest[0].resource.map((r: Json) => r.type) as string[]) {
      if (type === "Binary") {
        // Read only: the document's bytes, at its DocumentReference's attachment URL.
        const refs = await call(
          "GET /fhir/R4/DocumentReference",
          `/fhir/R4/DocumentReference?${scoped.DocumentReference}`,
          200,
        );
        const bytes = await rt.call("GET", `/fhir/R4/${refs.entry[0].resource.content[0].attachment.url}`);
        expect(bytes.status).toBe(200);
        expect(await bytes.text()).toBe("Referral: right shoulder.\n");
        expect(Object.keys(doc.paths["/fhir/R4/Binary/{id}"].get.responses["200"].content)).toEqual(["*/*"]);
        checker.covered.add("GET /fhir/R4/Binary/{id} 200");
        await call("GET /fhir/R4/Binary/{id}", "/fhir/R4/Binary/999999", 404);
        await call("GET /fhir/R4/Binary/{id}", "/fhir/R4/Binary/1", 401, { token: null });
        continue;
      }
      const scope = scoped[type] ?? "";
      const bundle = await call(`GET /fhir/R4/${type}`, `/fhir/R4/${type}?_count=1${scope}`, 200);
      expect(bundle.entry).toHaveLength(1);
      await call(`GET /fhir/R4/${type}/{id}`, `/fhir/R4/${type}/${bundle.entry[0].resource.id}`, 200);
      await call(`GET /fhir/R4/${type}/{id}`, `/fhir/R4/${type}/999999`, 404);
      await call(`GET /fhir/R4/${type}`, `/fhir/R4/${type}?colour=blue`, 400);
      await call(`GET /fhir/R4/${type}`, `/fhir/R4/${type}`, 401, { token: null });
    }
    await call("GET /fhir/R4/Patient", "/fhir/R4/Patient", 403, { token: await rt.token({ scope: "tasks:read" }) });
    // Bulk Data export: kick-offs, the status until the manifest, a file (NDJSON, checked by hand as Binary is),
    // DELETE, and the refusals.
    const asynchronous = { headers: { prefer: "respond-async" } };
    await call("GET /fhir/R4/Patient/$export", "/fhir/R4/Patient/$export?_type=Patient", 202, asynchronous);
    await call("GET /fhir/R4/Patient/$export", "/fhir/R4/Patient/$export?_type=Location", 400, asynchronous);
    await call("GET /fhir/R4/$export", "/fhir/R4/$export", 400);
    await call("GET /fhir/R4/$export", "/fhir/R4/$export?_type=Location", 403, {
      ...asynchronous,
      token: await rt.token({ scope: "system/Patient.rs" }),
    });
    const kicked = await rt.call("GET", "/fhir/R4/$export?_type=Patient,Location", asynchronous);
    expect(kicked.status).toBe(202);
    const statusPath = new URL(kicked.headers.get("content-location") ?? "").pathname;
    let manifest: Json;
    for (let i = 0; i < 200 && !manifest; i++) {
      const polled = await rt.call("GET", statusPath);
      if (polled.status === 200) manifest = await call("GET /fhir/R4/$export-status/{id}", statusPath, 200);
      else await new Promise((r) => setTimeout(r, 50));
    }
    expect(manifest.output.map((o: Json) => o.type)).toEqual(["Patient", "Location"]);
    const file = await rt.call("GET", new URL(manifest.output[0].url).pathname);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("application/fhir+ndjson");
    expect((await file.text()).trimEnd().split("\n")).toHaveLength(manifest.output[0].count);
    expect(Object.keys(doc.paths["/fhir/R4/$export-file/{id}/{file}"].get.responses["200"].content)).toEqual([
      "application/fhir+ndjson",
    ]);
    checker.covered.add("GET /fhir/R4/$export-file/{id}/{file} 200");
    await call("GET /fhir/R4/$export-file/{id}/{file}", `${statusPath.replace("status", "file")}/9.ndjson`, 404);
    await call("DELETE /fhir/R4/$export-status/{id}", statusPath, 202);
    await call("DELETE /fhir/R4/$export-status/{id}", statusPath, 404);
    await call("GET /fhir/R4/$export-status/{id}", statusPath, 404);
    expect(problems).toEqual([]);
  });

  it("covered the representative operations (and reports how much of the document real replies checked)", () => {
    const required = [
      "POST /apis/v1/patient 200",
      "GET /apis/v1/patient/{id} 200",
      "GET /apis/v1/patient/{id} 404",
      "POST /v2/patients 201",
      "GET /v2/patients/{id} 200",
      "GET /v2/patients 200",
      "GET /v2/patients/{id} 404",
      "POST /apis/v1/appointment 200",
      "GET /apis/v1/appointment/{appointment_id} 200",
      "GET /apis/v1/appointments 200",
      "POST /apis/soap-enrichment/v1/patientCase 200",
      "GET /apis/soap-enrichment/v1/patientCase/{id} 200",
      "GET /v2/clinics 200",
      "GET /v2/clinics/{clinic_id} 200",
      "GET /v2/providers 200",
      "GET /v2/providers/{provider_id} 200",
      "GET /v2/staff 200",
      "GET /v2/staff/{staff_id} 200",
      "GET /v2/payers 200",
      "GET /v2/payers/{payer_ref} 200",
      "GET /v2/appointment-types 200",
      "GET /v2/appointment-types/{appointment_type_id} 200",
      "GET /healthz 200",
      "GET /readyz 200",
      "GET /readyz 503",
    ];
    expect(required.filter((r) => !checker.covered.has(r))).toEqual([]);
    const operations = Object.entries<Json>(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const reached = new Set([...checker.covered].map((c) => c.split(" ").slice(0, 2).join(" ")));
    const missed = operations.filter((o) => !reached.has(o));
    console.log(
      `[openapi-responses] ${checker.covered.size} operation/status pairs checked; ${operations.length - missed.length} of ${operations.length} operations reached; not reached: ${missed.join(", ")}`,
    );
    // Every operation of the document: a new route needs a real request here.
    expect(missed).toEqual([]);
    expect(problems).toEqual([]);
  });
});
