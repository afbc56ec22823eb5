import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines } from "../support/engines.js";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";

// Spec 4.7 GET /v2/clinics and the clinic's own create, read and change, on every engine this run has.
for (const engine of availableEngines()) {
  describe(`[${engine}] v2 clinics`, () => {
    let rt: TestRuntime;
    beforeAll(async () => {
      rt = await startTestRuntime({ OPENPRACTICE_PLAN_LIMITS: '{"free":100000}' }, { engine });
    });
    afterAll(async () => {
      await rt.stop();
    });

    let seq = 0;
    const json = async (res: Response) => ({ status: res.status, body: await res.json() });
    const create = (body: Record<string, unknown>, token?: string) =>
      rt.call("POST", "/v2/clinics", token ? { body, token } : { body }).then(json);
    const clinic = (over: Record<string, unknown> = {}) => ({
      name: `Clinic ${engine} ${++seq}`,
      time_zone: "America/Chicago",
      ...over,
    });
    const events = async (type: string, id: string) =>
      (await rt.rawRows("select data from outbox where event_type = ?", type)).filter(
        (r) => JSON.parse(String(r.data)).clinic_id === Number(id),
      ).length;

    it("adds a clinic with its details: 201, Location, defaults, EIN shown with its dash, a clinic.created event", async () => {
      const { status, body } = await create(
        clinic({
          name: "Lakeside Physical Therapy",
          address: { street: "100 Lake St", city: "Chicago", state: "IL", zip_code: "60601", country: "US" },
          phone: "312-555-0100",
          npi: "1234567893",
          tax_id: "123456789",
        }),
      );
      expect(status).toBe(201);
      expect(body).toMatchObject({
        id: expect.stringMatching(/^\d+$/),
        name: "Lakeside Physical Therapy",
        time_zone: "America/Chicago",
        address: {
          street: "100 Lake St",
          street2: null,
          city: "Chicago",
          state: "IL",
          zip_code: "60601",
          country: "US",
        },
        place_of_service: "11",
        npi: "1234567893",
        tax_id: "12-3456789",
        allow_double_booking: false,
        active: true,
      });
      expect(await events("clinic.created", body.id)).toBe(1);
      expect((await json(await rt.call("GET", `/v2/clinics/${body.id}`))).body).toEqual(body);
      // v1 reads the same row.
      const v1 = (await json(await rt.call("GET", "/apis/v1/clinics"))).body.data;
      expect(v1.find((c: { clinic_id: number }) => String(c.clinic_id) === body.id)).toMatchObject({
        name: "Lakeside Physical Therapy",
        time_zone: "America/Chicago",
      });
    });

    it("names a bad time zone, NPI check digit, EIN and place of service with 400 and writes nothing", async () => {
      const before = Number(await rt.scalar("select count(*) from clinics"));
      const bad = await create(
        clinic({ time_zone: "Mars/Olympus", npi: "1234567890", tax_id: "12-345", place_of_service: "1" }),
      );
      expect(bad.status).toBe(400);
      expect(bad.body.error.details.errors.map((e: { field: string }) => e.field).sort()).toEqual([
        "place_of_service",
        "tax_id",
      ]);
      const rules = await create(clinic({ time_zone: "Mars/Olympus", npi: "1234567890" }));
      expect(rules.body.error.details.errors.map((e: { field: string }) => e.field).sort()).toEqual([
        "npi",
        "time_zone",
      ]);
      expect(Number(await rt.scalar("select count(*) from clinics"))).toBe(before);
    });

    it("refuses a second clinic with the same name (409 naming it), also when renaming, and under 20 concurrent creates", async () => {
      const first = await create(clinic({ name: "Northside" }));
      const again = await create(clinic({ name: "Northside" }));
      expect(again.status).toBe(409);
      expect(again.body.error).toMatchObject({
        code: "DUPLICATE_CLINIC",
        details: { existing_clinic_id: first.body.id },
      });
      const other = await create(clinic());
      const rename = await json(
        await rt.call("PATCH", `/v2/clinics/${other.body.id}`, { body: { name: "Northside" } }),
      );
      expect(rename.status).toBe(409);
      const race = await Promise.all(Array.from({ length: 20 }, () => create(clinic({ name: `Race ${engine}` }))));
      expect(race.filter((r) => r.status === 201)).toHaveLength(1);
      expect(race.filter((r) => r.status === 409)).toHaveLength(19);
    });

    it("changes a clinic partially (address fields merge), deactivates and reactivates it; v1 settings changes emit clinic.updated", async () => {
      const { body: c } = await create(clinic({ address: { street: "1 Main", city: "Springfield", state: "IL" } }));
      const changed = await json(
        await rt.call("PATCH", `/v2/clinics/${c.id}`, {
          body: { address: { zip_code: "62701" }, phone: "217-555-0199", time_zone: "America/New_York" },
        }),
      );
      expect(changed.status).toBe(200);
      expect(changed.body).toMatchObject({
        name: c.name,
        time_zone: "America/New_York",
        phone: "217-555-0199",
        address: { street: "1 Main", city: "Springfield", state: "IL", zip_code: "62701" },
      });
      const off = await json(await rt.call("PATCH", `/v2/clinics/${c.id}`, { body: { active: false } }));
      expect(off.body.active).toBe(false);
      const listed = (await json(await rt.call("GET", "/v2/clinics?per_page=100"))).body.data.map(
        (x: { id: string }) => x.id,
      );
      expect(listed).not.toContain(c.id);
      const all = (await json(await rt.call("GET", "/v2/clinics?status=all&per_page=100"))).body.data.map(
        (x: { id: string }) => x.id,
      );
      expect(all).toContain(c.id);
      const v1 = await json(
        await rt.call("POST", `/apis/v1/clinic/${c.id}/settings`, { body: { allow_double_booking: true } }),
      );
      expect(v1.status).toBe(200);
      expect((await json(await rt.call("GET", `/v2/clinics/${c.id}`))).body.allow_double_booking).toBe(true);
      expect(await events("clinic.updated", c.id)).toBe(3);
    });

    it("lists by name, searchable by name and city, paged, with fields; 404 for other organisations and malformed ids", async () => {
      const token = await rt.token({ organisationId: 7 });
      for (const [name, city] of [
        ["Żabka Rehab", "Kraków"],
        ["Acme Chiropractic", "Austin"],
        ["Bay Vestibular", "Oakland"],
      ])
        expect((await create({ name, time_zone: "UTC", address: { city } }, token)).status).toBe(201);
      const list = async (q: string) => (await json(await rt.call("GET", `/v2/clinics${q}`, { token }))).body;
      expect((await list("")).data.map((c: { name: string }) => c.name)).toEqual([
        "Acme Chiropractic",
        "Bay Vestibular",
        "Żabka Rehab",
      ]);
      expect((await list("?search=krakow")).data.map((c: { name: string }) => c.name)).toEqual(["Żabka Rehab"]);
      const page = await list("?per_page=2&page=2&order=desc&fields=name");
      expect(page.data).toEqual([{ id: expect.any(String), name: "Acme Chiropractic" }]);
      expect(page.pagination).toMatchObject({ total_count: 3, total_pages: 2, has_next: false });
      const mine = (await list("")).data[0].id;
      expect((await rt.call("GET", `/v2/clinics/${mine}`)).status).toBe(404);
      const malformed = await json(await rt.call("GET", "/v2/clinics/abc", { token }));
      expect(malformed.body.error).toMatchObject({ code: "CLINIC_NOT_FOUND", details: { clinic_id: "abc" } });
    });

    it("needs the clinics scopes", async () => {
      const reader = await rt.token({ scope: "clinics:read" });
      expect((await rt.call("GET", "/v2/clinics", { token: reader })).status).toBe(200);
      expect((await create(clinic(), reader)).status).toBe(403);
      expect((await rt.call("GET", "/v2/clinics", { token: await rt.token({ scope: "patients:read" }) })).status).toBe(
        403,
      );
    });
  });
}
