import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines } from "../support/engines.js";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";

/** Path ids beyond the largest integer key an engine stores (2^31 - 1 on PostgreSQL and MariaDB) name nothing: 404, never a database error. */
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
  ])("%s %s is 404 %s", async (method, path, code) => {
    const res = await rt.call(method, path);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ data: null, error_code: code });
  });
});
