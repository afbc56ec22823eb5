import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ClearinghouseSimulator } from "../support/clearinghouse-simulator.js";
import { availableEngines } from "../support/engines.js";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";

// An organisation's administrator sets, tests, rotates and removes its clearinghouse through the API (issue 50,
// part 0), on every engine: no environment variable names the organisation, and each change is used by the next
// check without a restart. The clearinghouse is the local HTTPS simulator; its CA goes in as ca_pem.
for (const engine of availableEngines()) {
  describe(`[${engine}] an organisation's clearinghouse through the API`, () => {
    const clearinghouse = new ClearinghouseSimulator();
    let rt: TestRuntime;
    let admin = "";
    const ids = { patient: "", coverage: "" };
    const call = async (method: string, path: string, body?: unknown, token?: string) => {
      const res = await rt.call(method, path, { ...(body === undefined ? {} : { body }), ...(token ? { token } : {}) });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    };
    const settings = (over: Record<string, unknown> = {}) => ({
      url: clearinghouse.url,
      username: "lakeview",
      password: "first-secret",
      submitter_id: "LAKEVIEW01",
      receiver_id: "CLEARHOUSE",
      provider_npi: "1234567893",
      provider_name: "Lakeview Physical Therapy",
      timeout_ms: 5000,
      ca_pem: clearinghouse.ca,
      usage: "T",
      ...over,
    });
    const check = () => call("POST", `/v2/patients/${ids.patient}/coverages/${ids.coverage}/eligibility-checks`, {});
    const basic = (password: string) => `Basic ${Buffer.from(`lakeview:${password}`).toString("base64")}`;
    const rows = async () => Number(await rt.scalar("select count(*) from clearinghouse_settings"));

    beforeAll(async () => {
      await clearinghouse.start();
      rt = await startTestRuntime({ OPENPRACTICE_PLAN_LIMITS: '{"free":100000}' }, { engine });
      admin = await rt.token({ scope: "admin read write" });
      await rt.runtime.practice.storage.repositories.organisations.ensure({
        id: 1,
        name: "Org one",
        plan: "free",
        now: new Date(),
      });
      const payer = (await call("POST", "/v2/payers", { payer_id: "60054", name: "Aetna", type: "commercial" }, admin))
        .body.id;
      ids.patient = (
        await call("POST", "/v2/patients", { first_name: "Nora", last_name: "Quist", date_of_birth: "1980-02-03" })
      ).body.id;
      ids.coverage = (
        await call("POST", `/v2/patients/${ids.patient}/coverages`, {
          payer_ref: payer,
          member_id: "ACTIVE-PT",
          priority: "primary",
        })
      ).body.id;
    });
    afterAll(async () => {
      await rt?.stop();
      await clearinghouse.stop();
    });

    it("sets one without a restart, never shows the password, stores it sealed, rotates it, tests it and removes it", async () => {
      expect((await call("GET", "/v2/organisation/clearinghouse", undefined, admin)).body).toMatchObject({
        source: "none",
        password_set: false,
        url: null,
      });
      expect((await check()).status).toBe(409);

      const set = await call("PUT", "/v2/organisation/clearinghouse", settings(), admin);
      expect(set.status).toBe(200);
      expect(set.body).toMatchObject({ source: "api", url: clearinghouse.url, password_set: true, usage: "T" });
      expect(JSON.stringify(set.body)).not.toContain("first-secret");
      const [row] = await rt.rawRows("select sealed_password from clearinghouse_settings");
      expect(String(row?.sealed_password)).toMatch(/^v1\.[0-9a-f]{24}\.[0-9a-f]{32}\.[0-9a-f]+$/);
      expect(String(row?.sealed_password)).not.toContain("first-secret");

      // The next check goes there, with these credentials and envelope ids.
      const first = await check();
      expect(first.status).toBe(201);
      expect(first.body.status).toBe("active");
      const received = clearinghouse.received.at(-1);
      expect(received?.authorization).toBe(basic("first-secret"));
      expect(received?.raw).toContain("*ZZ*LAKEVIEW01");
      expect(received?.raw).toMatch(/\*T\*:~/); // ISA15 usage T

      // Left out, the password is kept; a new one rotates it from the next check.
      const kept = await call("PUT", "/v2/organisation/clearinghouse", settings({ password: undefined }), admin);
      expect(kept.body.password_set_at).toBe(set.body.password_set_at);
      await check();
      expect(clearinghouse.received.at(-1)?.authorization).toBe(basic("first-secret"));
      const rotated = await call(
        "PUT",
        "/v2/organisation/clearinghouse",
        settings({ password: "second-secret" }),
        admin,
      );
      expect(Date.parse(rotated.body.password_set_at)).toBeGreaterThan(Date.parse(set.body.password_set_at) - 1);
      await check();
      expect(clearinghouse.received.at(-1)?.authorization).toBe(basic("second-secret"));

      // The longest password, of three-byte characters (3,061 sealed characters), saves and works on every engine.
      const long = "密".repeat(500);
      const longSaved = await call("PUT", "/v2/organisation/clearinghouse", settings({ password: long }), admin);
      expect(longSaved.status).toBe(200);
      await check();
      expect(clearinghouse.received.at(-1)?.authorization).toBe(basic(long));
      await call("PUT", "/v2/organisation/clearinghouse", settings({ password: "second-secret" }), admin);

      // The test: a 270 for a made-up member, answered "subscriber not found", proves the connection.
      const tested = await call("POST", "/v2/organisation/clearinghouse/test", { payer_id: "60054" }, admin);
      expect(tested.body).toMatchObject({
        ok: true,
        source: "api",
        answered: "rejections",
        rejections: [{ code: "75", reason: "Subscriber/insured not found", loop: "2100C" }],
        failure: null,
      });
      expect(clearinghouse.received.at(-1)).toMatchObject({ memberId: "OPENPRACTICE-TEST", payerId: "60054" });
      const shown = await call("GET", "/v2/organisation/clearinghouse", undefined, admin);
      expect(shown.body).toMatchObject({ last_test_outcome: "ok", password_set: true });
      // A clearinghouse that does not answer: the test says why.
      await call("PUT", "/v2/organisation/clearinghouse", settings({ url: "https://127.0.0.1:1/realtime" }), admin);
      const down = await call("POST", "/v2/organisation/clearinghouse/test", undefined, admin);
      expect(down.body).toMatchObject({ ok: false, failure: "unavailable", answered: null });

      // Audited without the secret.
      const audit = await call("GET", "/v2/audit-events?action=v2SetClearinghouse", undefined, admin);
      expect(audit.body.data.length).toBe(6);
      expect(audit.body.data[0].changed_fields).toContain("password");
      const trail = await rt.rawRows("select * from audit_events");
      expect(JSON.stringify(trail)).not.toContain("second-secret");

      // Removed: the checks have nowhere to go again; a second removal is 404.
      const removed = await call("DELETE", "/v2/organisation/clearinghouse", undefined, admin);
      expect(removed.body).toMatchObject({ source: "none", password_set: false });
      expect((await call("DELETE", "/v2/organisation/clearinghouse", undefined, admin)).body.error.code).toBe(
        "CLEARINGHOUSE_NOT_SET",
      );
      expect((await check()).status).toBe(409);
      expect((await call("POST", "/v2/organisation/clearinghouse/test", undefined, admin)).status).toBe(409);
    });

    it("refuses bad settings naming each field, a first save without a password, and tokens it should not serve; nothing stored", async () => {
      const before = await rows();
      const bad = await call(
        "PUT",
        "/v2/organisation/clearinghouse",
        settings({
          url: "http://clearinghouse.example.com/realtime",
          provider_npi: "1234567890",
          submitter_id: "LAKE*VIEW",
          password: undefined,
          timeout_ms: 50,
          ca_pem: "not a certificate",
        }),
        admin,
      );
      expect(bad.status).toBe(400);
      expect(bad.body.error.details.errors.map((e: { field: string }) => e.field).sort()).toEqual([
        "ca_pem",
        "password",
        "provider_npi",
        "submitter_id",
        "timeout_ms",
        "url",
      ]);
      // A password sent wrong is named, never repeated; a user name Basic cannot carry is refused.
      const typed = await call("PUT", "/v2/organisation/clearinghouse", settings({ password: 12345678 }), admin);
      expect(typed.body.error.details.errors).toEqual([{ field: "password", reason: expect.any(String) }]);
      const tooLong = await call(
        "PUT",
        "/v2/organisation/clearinghouse",
        settings({ password: "x".repeat(501) }),
        admin,
      );
      expect(JSON.stringify(tooLong.body)).not.toContain("x".repeat(501));
      const colon = await call("PUT", "/v2/organisation/clearinghouse", settings({ username: "lake:view" }), admin);
      expect(colon.body.error.details.errors[0]).toMatchObject({ field: "username" });
      const withUser = await call(
        "PUT",
        "/v2/organisation/clearinghouse",
        settings({ url: "https://user:pw@clearinghouse.example.com/" }),
        admin,
      );
      expect(withUser.body.error.details.errors[0]).toMatchObject({ field: "url" });
      // Not an administrator, or an administrator restricted to clinics.
      expect((await call("PUT", "/v2/organisation/clearinghouse", settings())).status).toBe(403);
      const clinic = (await call("POST", "/v2/clinics", { name: "North", time_zone: "America/Chicago" })).body.id;
      const restricted = await rt.token({ scope: "admin", clinicIds: [Number(clinic)] });
      expect((await call("PUT", "/v2/organisation/clearinghouse", settings(), restricted)).status).toBe(403);
      expect((await call("GET", "/v2/organisation/clearinghouse")).status).toBe(403);
      expect(await rows()).toBe(before);
    });
  });
}
