import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines } from "../support/engines.js";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";

// Spec 4.7 /v2/staff on every engine this run has (SQLite; PostgreSQL and MariaDB in CI).
for (const engine of availableEngines()) {
  describe(`[${engine}] v2 staff`, () => {
    let rt: TestRuntime;
    const clinic = { main: "", north: "", foreign: "" };

    beforeAll(async () => {
      rt = await startTestRuntime({ OPENPRACTICE_PLAN_LIMITS: '{"free":100000}' }, { engine });
      // Clinics through the library (their API is the next domain); everything asserted goes over HTTP.
      const r = rt.runtime.practice.storage.repositories;
      const now = new Date();
      await r.organisations.ensure({ id: 1, name: "Org one", plan: "free", now });
      await r.organisations.ensure({ id: 2, name: "Org two", plan: "free", now });
      const ensure = async (organisationId: number, name: string) =>
        String((await r.organisations.ensureClinic({ organisationId, name, timeZone: "America/Chicago" })).id);
      clinic.main = await ensure(1, "Main");
      clinic.north = await ensure(1, "North");
      clinic.foreign = await ensure(2, "Elsewhere");
    });
    afterAll(async () => {
      await rt.stop();
    });

    const json = async (res: Response) => ({ status: res.status, body: await res.json() });
    const post = (body: unknown, token?: string) => rt.call("POST", "/v2/staff", token ? { body, token } : { body });
    const count = async () => Number(await rt.scalar("select count(*) from staff"));
    const events = async (type: string, staffId: string) =>
      (await rt.rawRows("select data from outbox where event_type = ?", type)).filter(
        (r) => JSON.parse(String(r.data)).staff_id === Number(staffId),
      ).length;
    const member = (over: Record<string, unknown> = {}) => ({
      first_name: "Rosa",
      last_name: "Delgado",
      email: `rosa.${Math.random().toString(36).slice(2)}@clinic.test`,
      roles: ["front_desk"],
      ...over,
    });

    it("adds a member: 201 with Location, ids as strings, clinics in id order, a staff.created event", async () => {
      const res = await post(
        member({
          email: "Rosa.Delgado@Clinic.test",
          phone: "555-0100",
          roles: ["front_desk", "scheduler"],
          clinic_ids: [clinic.north, Number(clinic.main)],
        }),
      );
      const { status, body } = await json(res);
      expect(status).toBe(201);
      expect(res.headers.get("location")).toBe(`/v2/staff/${body.id}`);
      expect(body).toMatchObject({
        id: expect.stringMatching(/^\d+$/),
        first_name: "Rosa",
        email: "Rosa.Delgado@Clinic.test",
        phone: "555-0100",
        roles: ["front_desk", "scheduler"],
        clinic_ids: [clinic.main, clinic.north].sort((a, b) => Number(a) - Number(b)),
        status: "active",
        deactivated_at: null,
      });
      expect(await events("staff.created", body.id)).toBe(1);
      const read = await json(await rt.call("GET", `/v2/staff/${body.id}`));
      expect(read.body).toEqual(body);
    });

    it("refuses a second member with the same email, in any case: 409 naming the holder, nothing written", async () => {
      const first = await json(await post(member({ email: "pat@clinic.test" })));
      const before = await count();
      const again = await json(await post(member({ email: "PAT@Clinic.TEST" })));
      expect(again.status).toBe(409);
      expect(again.body.error).toMatchObject({
        code: "DUPLICATE_STAFF_EMAIL",
        details: { existing_staff_id: first.body.id },
      });
      expect(await count()).toBe(before);
    });

    it("names unknown and foreign clinics, bad roles and missing fields with 400, writing nothing", async () => {
      const before = await count();
      const clinics = await json(await post(member({ clinic_ids: [clinic.main, clinic.foreign, "999999"] })));
      expect(clinics.status).toBe(400);
      expect(clinics.body.error.code).toBe("VALIDATION_FAILED");
      expect(clinics.body.error.details.errors.map((e: { field: string }) => e.field).sort()).toEqual([
        "clinic_ids.1",
        "clinic_ids.2",
      ]);
      const roles = await json(await post(member({ roles: ["janitor"] })));
      expect(roles.status).toBe(400);
      expect(roles.body.error.details.errors[0]).toMatchObject({ field: "roles.0" });
      const empty = await json(await post(member({ roles: [] })));
      expect(empty.body.error.details.errors[0]).toMatchObject({ field: "roles" });
      const missing = await json(await post({ first_name: "No", last_name: "Email", roles: ["biller"] }));
      expect(missing.status).toBe(400);
      expect(missing.body.error.details.errors[0]).toMatchObject({ field: "email", reason: "is required" });
      const twice = await json(await post(member({ roles: ["biller", "biller"] })));
      expect(twice.body.error.details.errors[0]).toMatchObject({ field: "roles.1", reason: "is listed twice" });
      expect(await count()).toBe(before);
    });

    it("answers 404 for another organisation's member and for an id that names nothing", async () => {
      const created = await json(await post(member()));
      const other = await rt.token({ organisationId: 2 });
      for (const [path, token] of [
        [`/v2/staff/${created.body.id}`, other],
        ["/v2/staff/abc", undefined],
        ["/v2/staff/0", undefined],
      ] as const) {
        const res = await json(await rt.call("GET", path, token ? { token } : {}));
        expect(res.status).toBe(404);
        expect(res.body.error.code).toBe("STAFF_NOT_FOUND");
      }
      const malformed = await json(await rt.call("PATCH", "/v2/staff/abc", { body: { first_name: "X" } }));
      expect(malformed.body.error.details).toMatchObject({ staff_id: "abc" });
    });

    it("lists active members by last name, paged, searchable accent- and case-insensitively, by role and clinic", async () => {
      const org = 3;
      const token = await rt.token({ organisationId: org });
      const r = rt.runtime.practice.storage.repositories;
      await r.organisations.ensure({ id: org, name: "Org three", plan: "free", now: new Date() });
      const west = String(
        (await r.organisations.ensureClinic({ organisationId: org, name: "West", timeZone: "UTC" })).id,
      );
      for (const [first, last, roles, clinics] of [
        ["Zoë", "Álvarez", ["biller"], [west]],
        ["Ben", "Carter", ["front_desk"], []],
        ["Ann", "Brooks", ["admin", "biller"], [west]],
      ] as const) {
        const res = await post(member({ first_name: first, last_name: last, roles, clinic_ids: clinics }), token);
        expect(res.status).toBe(201);
      }
      const names = async (query: string) => {
        const res = await json(await rt.call("GET", `/v2/staff${query}`, { token }));
        expect(res.status).toBe(200);
        return res.body;
      };
      expect((await names("")).data.map((m: { last_name: string }) => m.last_name)).toEqual([
        "Álvarez",
        "Brooks",
        "Carter",
      ]);
      expect((await names("?search=ZOE%20alv")).data.map((m: { first_name: string }) => m.first_name)).toEqual(["Zoë"]);
      expect((await names("?role=biller")).data).toHaveLength(2);
      expect(
        (await names(`?clinic_id=${west}&role=admin`)).data.map((m: { first_name: string }) => m.first_name),
      ).toEqual(["Ann"]);
      const page = await names("?per_page=1&page=2&sort=first_name&order=desc");
      expect(page.data.map((m: { first_name: string }) => m.first_name)).toEqual(["Ben"]);
      expect(page.pagination).toMatchObject({
        current_page: 2,
        total_pages: 3,
        total_count: 3,
        has_next: true,
        has_previous: true,
      });
      expect(Object.keys((await names("?fields=email")).data[0]).sort()).toEqual(["email", "id"]);
      const bad = await json(await rt.call("GET", "/v2/staff?sort=salary", { token }));
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatchObject({ code: "INVALID_PARAMETER", details: { parameter: "sort" } });
    });

    it("changes a member partially; deactivates with DELETE (once), reactivates with status active", async () => {
      const a = (await json(await post(member({ clinic_ids: [clinic.main] })))).body;
      const b = (await json(await post(member()))).body;
      const changed = await json(
        await rt.call("PATCH", `/v2/staff/${a.id}`, { body: { roles: ["biller"], clinic_ids: [], phone: null } }),
      );
      expect(changed.status).toBe(200);
      expect(changed.body).toMatchObject({ first_name: "Rosa", roles: ["biller"], clinic_ids: [], phone: null });
      const taken = await json(await rt.call("PATCH", `/v2/staff/${a.id}`, { body: { email: b.email.toUpperCase() } }));
      expect(taken.status).toBe(409);
      expect(taken.body.error.details).toMatchObject({ existing_staff_id: b.id });
      const viaPatch = await json(await rt.call("PATCH", `/v2/staff/${a.id}`, { body: { status: "inactive" } }));
      expect(viaPatch.status).toBe(400);
      expect(viaPatch.body.error.details.errors[0]).toMatchObject({ field: "status" });

      const gone = await json(await rt.call("DELETE", `/v2/staff/${a.id}`));
      expect(gone.status).toBe(200);
      expect(gone.body).toMatchObject({ status: "inactive", deactivated_at: expect.any(String) });
      const again = await json(await rt.call("DELETE", `/v2/staff/${a.id}`));
      expect(again.body.deactivated_at).toBe(gone.body.deactivated_at);
      expect(await events("staff.deactivated", a.id)).toBe(1);
      const active = (await json(await rt.call("GET", "/v2/staff?per_page=100"))).body.data.map(
        (m: { id: string }) => m.id,
      );
      expect(active).not.toContain(a.id);
      const inactive = (await json(await rt.call("GET", "/v2/staff?status=inactive&per_page=100"))).body.data;
      expect(inactive.map((m: { id: string }) => m.id)).toContain(a.id);

      const back = await json(await rt.call("PATCH", `/v2/staff/${a.id}`, { body: { status: "active" } }));
      expect(back.body).toMatchObject({ status: "active", deactivated_at: null });
      expect(await events("staff.updated", a.id)).toBe(2);
    });

    it("needs the staff scopes: staff:read lists but may not add; a patients token may not list", async () => {
      const reader = await rt.token({ scope: "staff:read" });
      expect((await rt.call("GET", "/v2/staff", { token: reader })).status).toBe(200);
      const refused = await json(await post(member(), reader));
      expect(refused.status).toBe(403);
      expect(refused.body.error.details).toMatchObject({ accepted_scopes: ["staff:write", "write"] });
      const patients = await rt.token({ scope: "patients:read patients:write" });
      expect((await rt.call("GET", "/v2/staff", { token: patients })).status).toBe(403);
    });

    it("of 20 concurrent adds with one email exactly one is created; the others name it", async () => {
      const email = `race.${engine}@clinic.test`;
      const results = await Promise.all(Array.from({ length: 20 }, () => post(member({ email })).then(json)));
      const created = results.filter((r) => r.status === 201);
      expect(created).toHaveLength(1);
      const refused = results.filter((r) => r.status === 409);
      expect(refused).toHaveLength(19);
      for (const r of refused) expect(r.body.error.details.existing_staff_id).toBe(created[0]?.body.id);
      expect(Number(await rt.scalar("select count(*) from staff where email_key = ?", email))).toBe(1);
    });
  });
}
