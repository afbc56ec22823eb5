import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines } from "../support/engines.js";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";

// Spec 4.7 GET /v2/appointment-types, and an administrator's appointment types and cancellation reasons.
for (const engine of availableEngines()) {
  describe(`[${engine}] v2 appointment types and cancellation reasons`, () => {
    let rt: TestRuntime;
    let admin = "";
    beforeAll(async () => {
      rt = await startTestRuntime({ OPENPRACTICE_PLAN_LIMITS: '{"free":100000}' }, { engine });
      admin = await rt.token({ scope: "read write admin" });
    });
    afterAll(async () => {
      await rt.stop();
    });
    const json = async (res: Response) => ({ status: res.status, body: await res.json() });
    const call = (method: string, path: string, body?: unknown, token = admin) =>
      rt.call(method, path, body === undefined ? { token } : { body, token }).then(json);

    it("an admin adds and changes appointment types; v2 lists active ones with duration and colour, v1 reads the same", async () => {
      const created = await call("POST", "/v2/appointment-types", {
        name: "Initial evaluation",
        type: "IN_PERSON",
        duration_minutes: 60,
        colour: "#1E88E5",
      });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.any(String),
        name: "Initial evaluation",
        type: "IN_PERSON",
        duration_minutes: 60,
        colour: "#1E88E5",
        active: true,
      });
      const follow = await call("POST", "/v2/appointment-types", {
        name: "Follow-up",
        type: "TELEHEALTH",
        duration_minutes: 30,
      });
      expect(follow.body.colour).toBeNull();
      const list = await call("GET", "/v2/appointment-types");
      expect(list.body.data.map((t: { name: string }) => t.name)).toEqual(["Initial evaluation", "Follow-up"]);
      const v1 = await call("GET", "/apis/v1/appointment/categories");
      expect(v1.body.data.map((c: { name: string }) => c.name)).toEqual(["Initial evaluation", "Follow-up"]);

      const off = await call("PATCH", `/v2/appointment-types/${follow.body.id}`, {
        active: false,
        duration_minutes: 45,
      });
      expect(off.body).toMatchObject({ active: false, duration_minutes: 45 });
      expect((await call("GET", "/v2/appointment-types")).body.data).toHaveLength(1);
      expect((await call("GET", "/v2/appointment-types?status=all")).body.data).toHaveLength(2);
      expect((await call("GET", `/v2/appointment-types/${follow.body.id}`)).body.active).toBe(false);
    });

    it("refuses duplicates (409 naming the holder), bad fields (400 naming them) and non-admins (403)", async () => {
      const first = await call("POST", "/v2/appointment-types", {
        name: "Dry needling",
        type: "IN_PERSON",
        duration_minutes: 30,
      });
      const again = await call("POST", "/v2/appointment-types", {
        name: "Dry needling",
        type: "IN_PERSON",
        duration_minutes: 30,
      });
      expect(again.status).toBe(409);
      expect(again.body.error).toMatchObject({
        code: "DUPLICATE_APPOINTMENT_TYPE",
        details: { existing_appointment_type_id: first.body.id },
      });
      const bad = await call("POST", "/v2/appointment-types", {
        name: "X",
        type: "in person",
        duration_minutes: 2,
        colour: "blue",
      });
      expect(bad.status).toBe(400);
      expect(bad.body.error.details.errors.map((e: { field: string }) => e.field).sort()).toEqual([
        "colour",
        "duration_minutes",
        "type",
      ]);
      const writer = await rt.token({ scope: "read write" });
      expect(
        (await call("POST", "/v2/appointment-types", { name: "Y", type: "IN_PERSON", duration_minutes: 30 }, writer))
          .status,
      ).toBe(403);
      expect((await call("GET", "/v2/appointment-types/abc")).body.error.code).toBe("APPOINTMENT_TYPE_NOT_FOUND");
      const other = await rt.token({ organisationId: 4, scope: "read" });
      expect((await call("GET", `/v2/appointment-types/${first.body.id}`, undefined, other)).status).toBe(404);
    });

    it("an admin adds and changes cancellation reasons; an inactive reason can no longer be named by a cancellation", async () => {
      const reason = await call("POST", "/v2/cancellation-reasons", {
        reason_key: "late",
        reason_label: "Cancelled within 24 hours",
        cancellation_fee: 25,
      });
      expect(reason.status).toBe(201);
      expect(reason.body).toEqual({
        id: expect.any(String),
        reason_key: "late",
        reason_label: "Cancelled within 24 hours",
        cancellation_fee: 25,
        status: "ACTIVE",
      });
      const dup = await call("POST", "/v2/cancellation-reasons", { reason_key: "late", reason_label: "Again" });
      expect(dup.body.error).toMatchObject({
        code: "DUPLICATE_CANCELLATION_REASON",
        details: { existing_cancellation_reason_id: reason.body.id },
      });
      const changed = await call("PATCH", `/v2/cancellation-reasons/${reason.body.id}`, {
        cancellation_fee: 40,
        status: "INACTIVE",
      });
      expect(changed.body).toMatchObject({ reason_key: "late", cancellation_fee: 40, status: "INACTIVE" });
      expect((await call("GET", "/v2/cancellation-reasons")).body.data).toHaveLength(0);
      const v1 = await call("GET", "/apis/v1/appointment/appointment-cancellation");
      expect(v1.body.data[0]).toMatchObject({ reason_key: "late", cancellation_fee: 40, status: "INACTIVE" });
      expect((await call("PATCH", "/v2/cancellation-reasons/999999", { status: "ACTIVE" })).status).toBe(404);
      const keyChange = await call("PATCH", `/v2/cancellation-reasons/${reason.body.id}`, { reason_key: "x" });
      expect(keyChange.body.error.details.errors[0]).toMatchObject({ field: "reason_key" });
    });
  });
}
