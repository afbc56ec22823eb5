import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines } from "../support/engines.js";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";

// Referring physicians on v2 (spec 4.7, issue 20 point 3) over the registry v1 cases point into, on every engine.
for (const engine of availableEngines()) {
  describe(`[${engine}] v2 referring physicians`, () => {
    let rt: TestRuntime;
    const json = async (res: Response) => ({ status: res.status, body: await res.json() });
    const call = (method: string, path: string, body?: unknown, token?: string) =>
      rt.call(method, path, { ...(body === undefined ? {} : { body }), ...(token ? { token } : {}) }).then(json);

    beforeAll(async () => {
      rt = await startTestRuntime({ OPENPRACTICE_PLAN_LIMITS: '{"free":100000}' }, { engine });
    });
    afterAll(() => rt.stop());

    it("creates, finds by query, reads on v1 and v2, and updates one that has an address", async () => {
      const created = await call("POST", "/v2/referring-physicians", {
        first_name: "Maya",
        last_name: "Lindqvist",
        npi: "1234567893",
        address1: "201 E Huron St",
        city: "Chicago",
        state: "IL",
        zip: "60611",
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ id: expect.stringMatching(/^[1-9]/), npi: "1234567893", fax_number: null });
      await call("POST", "/v2/referring-physicians", { first_name: "Omar", last_name: "Haddad" });
      const found = await call("GET", "/v2/referring-physicians?query=lindq");
      expect(found.body.data.map((p: { id: string }) => p.id)).toEqual([created.body.id]);
      expect(found.body.pagination).toMatchObject({ total_count: 1, current_page: 1 });
      expect((await call("GET", "/v2/referring-physicians")).body.pagination.total_count).toBe(2);
      const v1 = await call("GET", `/apis/soap-enrichment/v1/referringPhysician/${created.body.id}`);
      expect(v1.body.data).toMatchObject({ ref_physician_id: Number(created.body.id), last_name: "Lindqvist" });
      const patched = await call("PATCH", `/v2/referring-physicians/${created.body.id}`, {
        fax_number: "312-555-0100",
      });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({ fax_number: "312-555-0100", city: "Chicago" });
      expect((await call("GET", `/v2/referring-physicians/${created.body.id}`)).body).toEqual(patched.body);
    });

    it("refuses to update a physician without an address until the change supplies one (spec 7.5)", async () => {
      const bare = await call("POST", "/v2/referring-physicians", { first_name: "Lena", last_name: "Ortiz" });
      const refused = await call("PATCH", `/v2/referring-physicians/${bare.body.id}`, { phone_number: "312-555-0111" });
      expect(refused.status).toBe(400);
      expect(refused.body.error.details.errors.map((e: { field: string }) => e.field)).toEqual([
        "address1",
        "city",
        "state",
        "zip",
      ]);
      expect((await call("GET", `/v2/referring-physicians/${bare.body.id}`)).body.phone_number).toBeNull();
      const partly = await call("PATCH", `/v2/referring-physicians/${bare.body.id}`, { address1: "1 Main St" });
      expect(partly.body.error.details.errors.map((e: { field: string }) => e.field)).toEqual(["city", "state", "zip"]);
      const supplied = await call("PATCH", `/v2/referring-physicians/${bare.body.id}`, {
        address1: "1 Main St",
        city: "Evanston",
        state: "IL",
        zip: "60201",
        phone_number: "312-555-0111",
      });
      expect(supplied.status).toBe(200);
      expect(supplied.body).toMatchObject({ city: "Evanston", phone_number: "312-555-0111" });
      // v1 keeps its contract: no address needed there.
      const other = await call("POST", "/v2/referring-physicians", { first_name: "Ada", last_name: "Kim" });
      const v1 = await call("POST", `/apis/soap-enrichment/v1/referringPhysician/${other.body.id}`, {
        phone_number: "3125550122",
      });
      expect(v1.body.code).toBe(2000);
    });

    it("names bad fields, refuses a duplicate NPI with the holder, and hides other organisations' physicians", async () => {
      const bad = await call("POST", "/v2/referring-physicians", {
        first_name: "X",
        last_name: "Y",
        npi: "1234567890",
        state: "Illinois",
      });
      expect(bad.status).toBe(400);
      const dup = await call("POST", "/v2/referring-physicians", {
        first_name: "Z",
        last_name: "Q",
        npi: "1234567893",
      });
      expect(dup.status).toBe(409);
      expect(dup.body.error.code).toBe("DUPLICATE_REFERRING_PHYSICIAN");
      const mine = (await call("GET", "/v2/referring-physicians?query=lindqvist")).body.data[0].id;
      const foreign = await rt.token({ organisationId: 2 });
      expect((await call("GET", `/v2/referring-physicians/${mine}`, undefined, foreign)).status).toBe(404);
      expect((await call("GET", "/v2/referring-physicians/999999")).status).toBe(404);
    });
  });
}
