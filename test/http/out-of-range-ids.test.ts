import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines } from "../support/engines.js";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";

/** Ids beyond the largest integer key an engine stores (2^31 - 1 on PostgreSQL and MariaDB) name nothing: 404 in a path, 400 in a query or body, never a database error. */
describe.each(availableEngines())("path ids out of the key range on %s", (engine) => {
  let rt: TestRuntime;
  beforeAll(async () => {
    rt = await startTestRuntime({}, { engine });
  });
  afterAll(async () => {
    await rt.stop();
  });

  it.each([
    ["GET", "/apis/v1/appointment/2147483648", "APPOINTMENT_NOT_FOUND"],
    ["POST", "/apis/v1/appointment/2147483648/check-in", "APPOINTMENT_NOT_FOUND"],
    ["DELETE", "/apis/soap-enrichment/v1/authorization/2147483648", "AUTHORIZATION_NOT_FOUND"],
    ["GET", "/apis/soap-enrichment/v1/referringPhysician/999999999999999", "REFERRING_PHYSICIAN_NOT_FOUND"],
    ["GET", "/apis/v1/treatment-sheet/2147483648", "TREATMENT_SHEET_NOT_FOUND"],
    ["GET", "/apis/v1/plan-of-care/2147483648", "PLAN_OF_CARE_NOT_FOUND"],
    ["GET", "/apis/v1/patient/2147483648/insurance-cards", "PATIENT_NOT_FOUND"],
    ["GET", "/apis/soap-enrichment/v1/patientCase/2147483648", "CASE_NOT_FOUND"],
    ["GET", "/apis/soap-enrichment/v1/patientCase/SERVICE_CASE_2147483648", "CASE_NOT_FOUND"],
  ])("%s %s is 404 %s", async (method, path, code) => {
    const res = await rt.call(method, path);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ data: null, error_code: code });
  });

  it.each([
    ["/apis/soap-enrichment/v1/patientCase?patient_id=99999999999999999999", "patient_id"],
    ["/apis/soap-enrichment/v1/patientCase?patient_id=1e308", "patient_id"],
    ["/apis/v1/soap-context/search?patient_id=2147483648", "patient_id"],
  ])("a query id out of range is 400 INVALID_PARAMETER: %s", async (path, parameter) => {
    const res = await rt.call("GET", path);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error_code: "INVALID_PARAMETER", details: { parameter } });
  });

  it("a body id out of range is 400 VALIDATION_FAILED naming the field", async () => {
    const patient = await rt.call("POST", "/apis/v1/patient", {
      // biome-ignore lint/correctness/noPrecisionLoss: 2^64 on purpose, beyond every engine's integer columns.
      body: { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1990-01-01", clinic_id: 18446744073709551616 },
    });
    expect(patient.status).toBe(400);
    expect(await patient.json()).toMatchObject({
      error_code: "VALIDATION_FAILED",
      errors: [{ field: "clinic_id", reason: "must be between 1 and 2147483647" }],
    });
    const appointment = await rt.call("POST", "/apis/v1/appointment", {
      body: {
        doctor_id: 101,
        patient_id: 2147483648,
        clinic_id: 1,
        timestamp: 1_900_000_000_000,
        end_timestamp: 1_900_000_360_000,
      },
    });
    expect(appointment.status).toBe(400);
    expect((await appointment.json()).errors).toContainEqual(
      expect.objectContaining({ field: "patient_id", reason: "must be between 1 and 2147483647" }),
    );
  });

  it.each(["2147483648", "SERVICE_CASE_999999999999999"])(
    "a case id past the key range is refused naming service_case_id in a body, and names nothing in a query: %s",
    async (caseRef) => {
      const booking = await rt.call("POST", "/apis/hep/v2/soap-context", {
        body: { patient_id: 1, type: "FOLLOWUP_SOAP", soap_without_appointment: true, service_case_id: caseRef },
      });
      expect(booking.status).toBeLessThan(500);
      expect(await booking.json()).toMatchObject({
        error_code: "VALIDATION_FAILED",
        errors: [{ field: "service_case_id" }],
      });
      for (const path of [
        `/apis/soap-enrichment/v1/authorization?service_case_id=${caseRef}`,
        `/apis/v1/soap-context?service_case_id=${caseRef}`,
      ]) {
        const res = await rt.call("GET", path);
        // A refused id (400) or no such case (404), never the database's out-of-range error.
        expect([400, 404], path).toContain(res.status);
      }
    },
  );

  it("a user id from the identity provider may pass 2^31 - 1 (64-bit columns): a doctor_id of 3,000,000,000 is looked up, not refused as out of range", async () => {
    const res = await rt.call("POST", "/apis/v1/appointment", {
      body: {
        doctor_id: 3_000_000_000,
        patient_id: 1,
        clinic_id: 1,
        appointment_category: 1,
        timestamp: 1_900_000_000_000,
        end_timestamp: 1_900_000_360_000,
        payment_mode: "CASH",
      },
    });
    expect(res.status).toBeLessThan(500);
    const body = await res.json();
    expect(JSON.stringify(body.errors ?? [])).not.toContain("doctor_id");
  });

  it.each([
    "/v2/patients?page=1e308",
    "/apis/v1/appointments?page=99999999999999999999",
    "/apis/v1/notifications/inbox?user_type=PATIENT&user_id=1&page=1e308",
  ])("a page out of range is 400 INVALID_PARAMETER: %s", async (path) => {
    const res = await rt.call("GET", path);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error_code ?? body.error.code).toBe("INVALID_PARAMETER");
  });

  it("the last page in range answers an empty page", async () => {
    const res = await rt.call("GET", "/v2/patients?page=2147483647&per_page=100");
    expect(res.status).toBe(200);
    expect((await res.json()).data).toEqual([]);
  });
});
