import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines } from "../support/engines.js";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";

// The same HTTP suite on every engine this run has (SQLite; PostgreSQL and MariaDB in CI).
for (const engine of availableEngines()) {
  describe(`[${engine}]`, () => {
    // Two runtime instances on one database: the budget is counted in the store, so they share it.
    let a: TestRuntime;
    let b: TestRuntime;
    beforeAll(async () => {
      a = await startTestRuntime({ OPENPRACTICE_PLAN_LIMITS: '{"free":10}' }, { engine });
      b = await startTestRuntime({ OPENPRACTICE_PLAN_LIMITS: '{"free":10}' }, { shareDatabaseOf: a });
    });
    afterAll(async () => {
      await b.stop();
      await a.stop();
    });

    describe("v2 rate limits per organisation plan", () => {
      it("shares one budget across two runtimes and answers 429 with Retry-After and X-RateLimit headers", async () => {
        const token = await a.token({ organisationId: 31 });
        // The window is the clock's minute: start well inside one, so a loop slowed by a busy machine cannot cross
        // a boundary (which would reset the count).
        const intoMinute = Date.now() % 60_000;
        if (intoMinute > 40_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - intoMinute + 200));
        const statuses: number[] = [];
        const remaining: string[] = [];
        for (let i = 0; i < 6; i++) {
          for (const rt of [a, b]) {
            const res = await rt.call("GET", "/v2/patients", { token });
            statuses.push(res.status);
            remaining.push(res.headers.get("x-ratelimit-remaining") ?? "");
            expect(res.headers.get("x-ratelimit-limit")).toBe("10");
            if (res.status === 429) {
              const body = await res.json();
              expect(body.error).toMatchObject({ code: "RATE_LIMIT_EXCEEDED", details: { limit: 10 } });
              const retry = Number(res.headers.get("retry-after"));
              expect(retry).toBeGreaterThanOrEqual(1);
              expect(retry).toBeLessThanOrEqual(60);
              expect(Number(res.headers.get("x-ratelimit-reset")) * 1000).toBeGreaterThan(Date.now());
            } else await res.arrayBuffer();
          }
        }
        expect(statuses.filter((s) => s === 200)).toHaveLength(10);
        expect(statuses.slice(10)).toEqual([429, 429]);
        expect(remaining.slice(0, 10)).toEqual(["9", "8", "7", "6", "5", "4", "3", "2", "1", "0"]);
      }, 60_000);

      it("keeps organisations' budgets separate and leaves v1 unlimited", async () => {
        const other = await a.token({ organisationId: 32 });
        expect((await a.call("GET", "/v2/patients", { token: other })).status).toBe(200);
        const exhausted = await a.token({ organisationId: 31 });
        expect((await a.call("GET", "/apis/v1/patient/1", { token: exhausted })).status).toBe(404);
      });

      it("uses the organisation's plan", async () => {
        const org = 33;
        await a.runtime.practice.storage.repositories.organisations.ensure({
          id: org,
          name: "Big",
          plan: "enterprise",
          now: new Date(),
        });
        const res = await a.call("GET", "/v2/patients", { token: await a.token({ organisationId: org }) });
        expect(res.headers.get("x-ratelimit-limit")).toBe("1000");
      });
    });
  });
}
