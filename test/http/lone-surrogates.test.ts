import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines } from "../support/engines.js";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";

const SURROGATE_REASON = expect.stringMatching(/^must not contain a lone UTF-16 surrogate/);

/**
 * Text the engines cannot store as sent is refused by name, on every engine: a lone surrogate ("\ud800" in JSON
 * text) became U+FFFD in the record, so a patient's name changed between the request and the chart. Refused in
 * v1's envelope and v2's error, in top-level and nested fields and in keys; bytes that are not UTF-8 in a body or a
 * query string likewise. Nothing is written: no patient, no audit entry.
 */
describe.each(availableEngines())("lone surrogates and bytes that are not UTF-8 on %s", (engine) => {
  let rt: TestRuntime;
  const counts = async () => ({
    patients: Number(await rt.scalar("select count(*) from patients")),
    audit: Number(await rt.scalar("select count(*) from audit_events")),
  });

  beforeAll(async () => {
    rt = await startTestRuntime({}, { engine });
  });
  afterAll(async () => {
    await rt?.stop();
  });

  it("v1 registration names the field in its envelope and stores nothing", async () => {
    const before = await counts();
    // JSON.stringify writes a lone surrogate as the escape \ud800, as a client's JSON encoder does.
    const body = JSON.stringify({ first_name: "Ad\ud800a", last_name: "Lovelace", date_of_birth: "1990-01-01" });
    expect(body).toContain("\\ud800");
    const res = await rt.call("POST", "/apis/v1/patient", { body });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: 4000,
      error_code: "VALIDATION_FAILED",
      errors: [{ field: "first_name", reason: SURROGATE_REASON }],
    });
    expect(await counts()).toEqual(before);
  });

  it("v2 names a nested field, a trailing low surrogate and a key", async () => {
    const before = await counts();
    const patient = { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1990-01-01" };
    const cases = [
      [{ ...patient, address: { city: "Londo\udc00" } }, "address.city", SURROGATE_REASON],
      [{ ...patient, last_name: "Lovelace\udfff" }, "last_name", SURROGATE_REASON],
      [{ ...patient, address: { "ci\ud83dty": "London" } }, "address.ci\ud83dty", expect.any(String)],
    ] as const;
    for (const [body, field, reason] of cases) {
      const res = await rt.call("POST", "/v2/patients", { body: JSON.stringify(body) });
      expect(res.status, field).toBe(400);
      const reply = await res.json();
      expect(reply.error.code).toBe("VALIDATION_FAILED");
      expect(reply.error.details.errors).toContainEqual(expect.objectContaining({ field, reason }));
    }
    expect(await counts()).toEqual(before);
  });

  it("text with surrogate pairs (emoji, astral letters) is kept exactly", async () => {
    const name = "Zoë 😀 𝒜da";
    const res = await rt.call("POST", "/v2/patients", {
      body: { first_name: name, last_name: "Lovelace", date_of_birth: "1990-01-01" },
    });
    expect(res.status).toBe(201);
    const created = await res.json();
    const read = await (await rt.call("GET", `/v2/patients/${created.id}`)).json();
    expect(read.first_name).toBe(name);
  });

  it("a body whose bytes are not UTF-8 is refused as malformed, in both contracts", async () => {
    const before = await counts();
    const head = Buffer.from('{"first_name":"Ad');
    const tail = Buffer.from('a","last_name":"Lovelace","date_of_birth":"1990-01-01"}');
    const token = await rt.token();
    for (const [path, bad] of [
      ["/v2/patients", Buffer.from([0xed, 0xa0, 0x80])], // the UTF-8-like encoding of U+D800 (CESU-8)
      ["/apis/v1/patient", Buffer.from([0xff])],
    ] as const) {
      const res = await fetch(`${rt.url}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: Buffer.concat([head, bad, tail]),
      });
      expect(res.status, path).toBe(400);
      const reply = await res.json();
      const code = reply.error?.code ?? reply.error_code;
      expect(code, path).toBe("MALFORMED_JSON");
      expect(JSON.stringify(reply), path).toContain("UTF-8");
    }
    expect(await counts()).toEqual(before);
  });

  it("a query parameter percent-encoding bytes that are not UTF-8 is refused by name", async () => {
    for (const [path, parameter] of [
      ["/v2/patients?search=Ad%ED%A0%80a", "search"],
      ["/apis/v1/notifications/inbox?user_type=PATIENT&user_id=Ad%FFa", "user_id"],
    ] as const) {
      const res = await rt.call("GET", path);
      expect(res.status, path).toBe(400);
      const reply = await res.json();
      expect(reply.error?.code ?? reply.error_code, path).toBe("INVALID_PARAMETER");
      expect(JSON.stringify(reply), path).toContain(`"${parameter}"`);
    }
    // A percent sign that escapes nothing stays text, as before.
    expect((await rt.call("GET", "/v2/patients?search=100%25%zz")).status).toBe(200);
  });
});
