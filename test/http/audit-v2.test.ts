import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines } from "../support/engines.js";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";

// GET /v2/audit-events and the recording of writes (and, when asked, patient reads) on every engine this run has.
for (const engine of availableEngines()) {
  describe(`[${engine}] audit trail`, () => {
    let rt: TestRuntime;
    let admin: string;
    let otherAdmin: string;
    let platform: string;

    beforeAll(async () => {
      rt = await startTestRuntime({ OPENPRACTICE_PLAN_LIMITS: '{"free":100000}' }, { engine });
      admin = await rt.token({ userId: 7, name: "Olga Admin", scope: "admin read write" });
      otherAdmin = await rt.token({ organisationId: 2, userId: 8, scope: "admin read write" });
      platform = await rt.token({ platform: true, scope: "platform:admin" });
    });
    afterAll(async () => {
      await rt.stop();
    });

    const json = async (res: Response) => ({ status: res.status, body: await res.json() });
    const trail = async (query = "", token = admin) =>
      json(await rt.call("GET", `/v2/audit-events${query}`, { token }));
    const entries = async () => Number(await rt.scalar("select count(*) from audit_events"));

    it("records a write with its actor, request id, record and the names of the fields sent", async () => {
      const res = await rt.call("POST", "/v2/staff", {
        token: admin,
        headers: { "x-request-id": "req-audit-1" },
        body: { first_name: "Rosa", last_name: "Delgado", email: "rosa@clinic.test", roles: ["front_desk"] },
      });
      const member = await res.json();
      expect(res.status).toBe(201);
      const { status, body } = await trail(`?resource_type=staff&resource_id=${member.id}`);
      expect(status).toBe(200);
      expect(body.data).toEqual([
        {
          id: expect.stringMatching(/^\d+$/),
          occurred_at: expect.any(String),
          actor: { user_id: "7", name: "Olga Admin", client_id: null },
          action: "v2CreateStaff",
          resource_type: "staff",
          resource_id: member.id,
          request_id: "req-audit-1",
          changed_fields: ["email", "first_name", "last_name", "roles"],
        },
      ]);
      await rt.call("PATCH", `/v2/staff/${member.id}`, { token: admin, body: { phone: "555-0100" } });
      await rt.call("DELETE", `/v2/staff/${member.id}`, { token: admin });
      const after = await trail(`?resource_type=staff&resource_id=${member.id}`);
      expect(
        after.body.data.map((e: { action: string; changed_fields: string[] }) => [e.action, e.changed_fields]),
      ).toEqual([
        ["v2DeactivateStaff", []],
        ["v2UpdateStaff", ["phone"]],
        ["v2CreateStaff", ["email", "first_name", "last_name", "roles"]],
      ]);
    });

    it("a refused write records nothing", async () => {
      const before = await entries();
      const duplicate = await rt.call("POST", "/v2/staff", {
        token: admin,
        body: { first_name: "R", last_name: "D", email: "ROSA@clinic.test", roles: ["front_desk"] },
      });
      expect(duplicate.status).toBe(409);
      const invalid = await rt.call("POST", "/v2/staff", { token: admin, body: { first_name: "" } });
      expect(invalid.status).toBe(400);
      const forbidden = await rt.call("POST", "/v2/staff", {
        token: await rt.token({ scope: "read" }),
        body: { first_name: "R", last_name: "D", email: "x@clinic.test", roles: ["front_desk"] },
      });
      expect(forbidden.status).toBe(403);
      expect(await entries()).toBe(before);
    });

    it("filters by actor, action and time, pages newest first, and needs the admin scope", async () => {
      const other = await rt.token({ userId: 9, name: "Second", scope: "write read" });
      await rt.call("POST", "/v2/patients", {
        token: other,
        body: { first_name: "Ada", last_name: "Byron", date_of_birth: "1980-01-01" },
      });
      const byActor = await trail("?actor_user_id=9");
      expect(byActor.body.data.map((e: { action: string }) => e.action)).toEqual(["v2CreatePatient"]);
      const byAction = await trail("?action=v2CreateStaff");
      expect(byAction.body.data.length).toBeGreaterThanOrEqual(1);
      const future = await trail(`?from=${encodeURIComponent(new Date(Date.now() + 3600_000).toISOString())}`);
      expect(future.body.data).toEqual([]);
      const page = await trail("?per_page=1&page=2");
      expect(page.body.data).toHaveLength(1);
      expect(page.body.pagination).toMatchObject({ current_page: 2, per_page: 1 });
      const all = await trail("?per_page=200");
      const ids = all.body.data.map((e: { id: string }) => Number(e.id));
      expect(ids).toEqual([...ids].sort((a, b) => b - a));
      expect((await trail("", other)).status).toBe(403);
      const bad = await trail("?from=yesterday");
      expect(bad.status).toBe(400);
      expect(bad.body.error.details).toMatchObject({ parameter: "from" });
    });

    it("is one organisation's own and append-only: no route changes or deletes it", async () => {
      const mine = await trail("?per_page=200");
      expect(mine.body.data.length).toBeGreaterThan(0);
      const theirs = await trail("?per_page=200", otherAdmin);
      expect(theirs.status).toBe(200);
      expect(theirs.body.data).toEqual([]);
      const someId = mine.body.data[0].id;
      for (const [method, path] of [
        ["POST", "/v2/audit-events"],
        ["DELETE", "/v2/audit-events"],
        ["PATCH", `/v2/audit-events/${someId}`],
        ["DELETE", `/v2/audit-events/${someId}`],
      ] as const) {
        const res = await rt.call(method, path, { token: admin, body: {} });
        expect([404, 405], `${method} ${path}`).toContain(res.status);
      }
      expect((await trail("?per_page=200")).body.data).toEqual(mine.body.data);
    });

    it("records reads of patient records only when the organisation turns audit_reads on", async () => {
      const created = await json(
        await rt.call("POST", "/v2/patients", {
          token: admin,
          body: { first_name: "Grace", last_name: "Hopper", date_of_birth: "1906-12-09" },
        }),
      );
      const read = () => rt.call("GET", `/v2/patients/${created.body.id}`, { token: admin });
      expect((await read()).status).toBe(200);
      expect((await trail(`?action=read:v2GetPatient`)).body.data).toEqual([]);
      const on = await rt.call("PATCH", "/v2/organisations/1", { token: platform, body: { audit_reads: true } });
      expect(on.status).toBe(200);
      expect((await read()).status).toBe(200);
      const reads = await trail("?action=read:v2GetPatient");
      expect(reads.body.data).toEqual([
        expect.objectContaining({ resource_type: "patient", resource_id: created.body.id, changed_fields: [] }),
      ]);
      // Reads of other records are not patient reads.
      await rt.call("GET", "/v2/staff", { token: admin });
      expect((await trail("?action=read:v2ListStaff")).body.data).toEqual([]);
      await rt.call("PATCH", "/v2/organisations/1", { token: platform, body: { audit_reads: false } });
    });
  });
}
