import { createPracticeMetrics } from "@openpractice/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines } from "../support/engines.js";
import { tokenRequest } from "../support/oauth.js";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";

/** Failures are counted per minute: start early in one, so a burst falls into a single window. */
async function earlyInAMinute(latestSecond: number) {
  const second = new Date().getSeconds();
  if (second > latestSecond) await new Promise((r) => setTimeout(r, (61 - second) * 1000));
}

const statuses = (responses: Response[]) => {
  const counts: Record<number, number> = {};
  for (const r of responses) counts[r.status] = (counts[r.status] ?? 0) + 1;
  return counts;
};

/** scrypt computations both instances started so far (the API client service's own count). */
const scryptStarted = (...rts: TestRuntime[]) =>
  rts.reduce((sum, rt) => sum + rt.runtime.practice.apiClients.secretHashingStats().started, 0);

// The token endpoint's failure limits hold under concurrency: each attempt is counted before its secret is hashed,
// in the shared store, so two instances over one database see one count.
for (const engine of availableEngines()) {
  describe(`[${engine}] the token endpoint's failure limits under concurrency`, () => {
    let rt: TestRuntime;
    let other: TestRuntime;
    beforeAll(async () => {
      rt = await startTestRuntime({}, { engine });
      other = await startTestRuntime({}, { shareDatabaseOf: rt });
    });
    afterAll(async () => {
      await other?.stop();
      await rt?.stop();
    });

    it("50 concurrent wrong secrets for one client, over two instances: at most 10 reach scrypt, the rest get 429", async () => {
      const org = await rt.runtime.practice.organisationAdmin.create({ name: `Burst ${engine}` });
      const { client, secret } = await rt.runtime.practice.apiClients.createForOrganisation(org.id, {
        name: "Burst target",
        scopes: ["read"],
      });
      await earlyInAMinute(40);
      const before = scryptStarted(rt, other);
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          tokenRequest(i % 2 ? other : rt, { clientId: client.clientId, secret: `ops_wrong${i}` }),
        ),
      );
      const hashed = scryptStarted(rt, other) - before;
      expect(hashed).toBeLessThanOrEqual(10);
      // Each 401 was a checked secret; every other attempt was refused before its secret was hashed.
      expect(statuses(answers)).toEqual({ 401: hashed, 429: 50 - hashed });
      expect(hashed).toBeGreaterThan(0);
      const refused = answers.find((r) => r.status === 429) as Response;
      expect(await refused.json()).toMatchObject({ error: "temporarily_unavailable" });
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      // The right secret waits for the minute to end too: the limit was used up.
      expect((await tokenRequest(rt, { clientId: client.clientId, secret })).status).toBe(429);
    }, 90_000);
  });
}

describe("the token endpoint under a burst from one address", () => {
  let rt: TestRuntime;
  beforeAll(async () => {
    rt = await startTestRuntime();
  });
  afterAll(async () => {
    await rt.stop();
  });

  it("80 concurrent wrong secrets for 80 unknown clients from one address: at most 30 reach scrypt, never more at once than the cap", async () => {
    await earlyInAMinute(30);
    // One failure first, so the decoy hash unknown clients are compared with exists before the count starts.
    expect((await tokenRequest(rt, { clientId: "opc_first", secret: "ops_nothing" })).status).toBe(401);
    const before = scryptStarted(rt);
    let mostRunning = 0;
    const watch = setInterval(() => {
      mostRunning = Math.max(mostRunning, rt.runtime.practice.apiClients.secretHashingStats().running);
    }, 5);
    const burst = Promise.all(
      Array.from({ length: 80 }, (_, i) => tokenRequest(rt, { clientId: `opc_unknown${i}`, secret: "ops_nothing" })),
    ).finally(() => clearInterval(watch));
    // The checks past the cap wait their turn, and the metrics show them waiting.
    const metrics = createPracticeMetrics(rt.runtime.practice, { defaultMetrics: false });
    const waiting = async () =>
      Number(/openpractice_client_secret_checks\{state="waiting"\} (\d+)/.exec((await metrics.render()).body)?.[1]);
    await expect.poll(waiting).toBeGreaterThan(0);
    const answers = await burst;
    expect(await waiting()).toBe(0);
    const hashed = scryptStarted(rt) - before;
    expect(hashed).toBeLessThanOrEqual(29);
    expect(statuses(answers)).toEqual({ 401: hashed, 429: 80 - hashed });
    expect(mostRunning).toBeGreaterThan(0);
    expect(mostRunning).toBeLessThanOrEqual(rt.runtime.practice.apiClients.secretHashingLimit);
  }, 90_000);
});
