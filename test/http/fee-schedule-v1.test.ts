import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines } from "../support/engines.js";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";

// The organisation's fee schedule (issue 50, part 1's allowed amounts) over HTTP on every engine: a CSV of
// year,code,allowed_amount replaces the years it lists, all or nothing, each bad line named with its number.
for (const engine of availableEngines()) {
  describe(`[${engine}] the v1 fee schedule`, () => {
    let rt: TestRuntime;
    let admin = "";
    const csv = (text: string, token = admin, type = "text/csv") =>
      rt
        .call("POST", "/apis/v1/fee-schedule", { body: text, token, headers: { "content-type": type } })
        .then(async (r) => ({ status: r.status, body: await r.json() }));
    const year = async (y: number) =>
      (await (await rt.call("GET", `/apis/v1/fee-schedule?year=${y}&size=50`)).json()).data;

    beforeAll(async () => {
      rt = await startTestRuntime({ OPENPRACTICE_PLAN_LIMITS: '{"free":100000}' }, { engine });
      admin = await rt.token({ scope: "admin read write" });
      const codes = ["97110", "97140", "97530", "97161"].map((code) => ({
        code,
        description: `Code ${code}`,
        timed: code !== "97161",
      }));
      const uploaded = await rt.call("POST", "/apis/v1/treatment-catalog", { body: { codes }, token: admin });
      expect(uploaded.status).toBe(200);
    });
    afterAll(() => rt?.stop());

    it("imports two years, reads one back in code order, and replaces a year whole", async () => {
      const first = await csv(
        "year,code,allowed_amount\n2025,97110,30.97\n2025,97140,27.88\n2026,97530,36.05\n2026,97110,31.48\n2026,97161,104\n",
      );
      expect(first.status).toBe(200);
      expect(first.body.data).toEqual({ years: { "2025": 2, "2026": 3 } });
      expect((await year(2026)).fees).toEqual([
        { year: 2026, code: "97110", allowed_amount: "31.48" },
        { year: 2026, code: "97161", allowed_amount: "104.00" },
        { year: 2026, code: "97530", allowed_amount: "36.05" },
      ]);
      // A new 2026 file (columns in another order, a byte-order mark, CRLF): 2026 is what it says, 2025 stays.
      const second = await csv("\uFEFFcode,allowed_amount,year\r\n97140,28.40,2026\r\n");
      expect(second.body.data).toEqual({ years: { "2026": 1 } });
      expect((await year(2026)).fees).toEqual([{ year: 2026, code: "97140", allowed_amount: "28.40" }]);
      expect((await year(2025)).pagination).toMatchObject({ total_count: 2 });
      const audit = await (
        await rt.call("GET", "/v2/audit-events?action=v1ImportFeeSchedule", { token: admin })
      ).json();
      expect(audit.data[0]).toMatchObject({ resource_type: "fee_schedule", resource_id: "2026" });
    });

    it("refuses every bad line by its number and imports nothing", async () => {
      const before = await year(2026);
      const bad = await csv(
        [
          "year,code,allowed_amount",
          "2026,97110,31.48", // line 2: fine
          "2026,99999,12.00", // line 3: not in the catalog
          "2026,97530,-4.00", // line 4: negative
          ",97140,20.00", // line 5: no year
          "2026,97110,31.50", // line 6: 97110 for 2026 again
          "2026,97161,12.345", // line 7: three decimals
          "1899,97161,10", // line 8: impossible year
        ].join("\n"),
      );
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe(4000);
      expect(bad.body.errors.map((e: { field: string }) => e.field)).toEqual([
        "lines.3.code",
        "lines.4.allowed_amount",
        "lines.5.year",
        "lines.6.code",
        "lines.7.allowed_amount",
        "lines.8.year",
      ]);
      expect(bad.body.errors[0].reason).toContain("line 3");
      expect(await year(2026)).toEqual(before);
      // A header that is not the schedule's, a broken quote, an empty file, another media type.
      expect((await csv("year,code,price\n2026,97110,1\n")).body.errors[0].field).toBe("lines.1");
      const quote = await csv('year,code,allowed_amount\n2026,"97110,1\n');
      expect(quote.status).toBe(400);
      expect(quote.body.errors[0].field).toMatch(/^lines\.\d+$/);
      expect((await csv("year,code,allowed_amount\n")).body.errors[0]).toMatchObject({ field: "lines" });
      expect((await csv("year,code,allowed_amount\n2026,97110,1\n", admin, "application/json")).status).toBe(415);
      expect(await year(2026)).toEqual(before);
    });

    it("is an administrator's, organisation-wide", async () => {
      const body = "year,code,allowed_amount\n2026,97110,1\n";
      expect((await csv(body, await rt.token({ scope: "read write" }))).status).toBe(403);
      const clinic = (
        await (await rt.call("POST", "/v2/clinics", { body: { name: "North", time_zone: "America/Chicago" } })).json()
      ).id;
      expect((await csv(body, await rt.token({ scope: "admin", clinicIds: [Number(clinic)] }))).status).toBe(403);
      expect((await rt.call("GET", "/apis/v1/fee-schedule")).status).toBe(400); // year is required
    });
  });
}
