import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines } from "../support/engines.js";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";

/** U+0000 in a body's text is refused by name on every engine (PostgreSQL cannot store it: it was a 500 there). */
describe.each(availableEngines())("NUL characters in request bodies on %s", (engine) => {
  let rt: TestRuntime;
  beforeAll(async () => {
    rt = await startTestRuntime({}, { engine });
  });
  afterAll(async () => {
    await rt.stop();
  });

  it("v1 patient registration names the field and stores nothing", async () => {
    const res = await rt.call("POST", "/apis/v1/patient", {
      body: { first_name: "a\u0000b", last_name: "Lovelace", date_of_birth: "1990-01-01" },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: 4000,
      error_code: "VALIDATION_FAILED",
      errors: [{ field: "first_name", reason: "must not contain the NUL character (U+0000)" }],
    });
    expect(await rt.scalar("select count(*) n from patients")).toBe(0);
  });

  it("v2 names a nested field", async () => {
    const res = await rt.call("POST", "/v2/patients", {
      body: { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1990-01-01", address: { city: "x\u0000" } },
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({
      code: "VALIDATION_FAILED",
      details: { errors: [{ field: "address.city", reason: "must not contain the NUL character (U+0000)" }] },
    });
  });
});
