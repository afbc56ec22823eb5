import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { createPractice, type Practice, type Storage } from "@openpractice/core";
import { createH3NodeServer } from "@openpractice/h3";
import { createHttpHandler, createJwtAuthenticator } from "@openpractice/http";
import { signAccessToken } from "@openpractice/runtime";
import { createSqliteStorage } from "@openpractice/sqlite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { testPracticeKeys } from "../support/practice-keys.js";

const SECRET = "rate-limit-reads-secret-0123456789-abcdefghijkl";
const ORG = 51;

/** A promise with its resolve function, to hold a storage call open. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

/** Waits until the server has recorded `count` storage events (a busy machine can take longer than any fixed pause). */
async function untilEvents(events: string[], count: number): Promise<void> {
  for (const deadline = Date.now() + 10_000; events.length < count && Date.now() < deadline; ) await settle();
}

// A read-only v2 route (readsOnly) starts its read while the request's rate-limit hit is counted.
// Real SQLite storage and a real loopback server; the storage's calls are observed, not replaced.
describe("v2 reads and the rate-limit hit", () => {
  let storage: Storage;
  let practice: Practice;
  let server: Server;
  let url: string;
  let token: string;
  const events: string[] = [];
  let hold: ReturnType<typeof gate> | undefined;

  beforeEach(async () => {
    events.length = 0;
    hold = undefined;
    storage = await createSqliteStorage({ filename: ":memory:" });
    // One fixed window: the refusal memory is per window, so a minute boundary must not fall inside a test.
    const now = new Date("2026-11-22T10:00:30.000Z");
    practice = createPractice({
      keys: testPracticeKeys(),
      storage,
      clock: { now: () => now },
      planLimits: { free: 2, professional: 2, enterprise: 2 },
    });
    const hits = storage.repositories.rateLimits;
    const hit = hits.hit.bind(hits);
    hits.hit = async (key, windowStart) => {
      events.push("hit started");
      if (hold) await hold.opened;
      const count = await hit(key, windowStart);
      events.push(`hit counted ${count}`);
      return count;
    };
    const patients = storage.repositories.patients;
    const list = patients.list.bind(patients);
    patients.list = async (criteria) => {
      events.push("list started");
      return list(criteria);
    };
    server = createH3NodeServer(
      createHttpHandler({ practice, authenticator: createJwtAuthenticator({ secret: SECRET }) }),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    token = await signAccessToken(SECRET, { organisationId: ORG, userId: 7, scope: "read write" });
  });

  afterEach(async () => {
    await new Promise((resolve) => server.close(resolve));
    await storage.close();
  });

  const get = (path: string, bearer = token) => fetch(url + path, { headers: { authorization: `Bearer ${bearer}` } });

  it("starts the list before the hit is counted, and answers with the count's headers", async () => {
    hold = gate();
    const pending = get("/v2/patients");
    await untilEvents(events, 2);
    const seen = [...events];
    hold.open();
    const res = await pending;
    // The hit also reads the organisation's plan first, so either may start first; the count has not come back.
    expect(seen.sort()).toEqual(["hit started", "list started"]);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-ratelimit-remaining")).toBe("1");
    expect((await res.json()).pagination.total_count).toBe(0);
  });

  it("drops the read of a refused request, then makes the organisation wait for the count", async () => {
    expect((await get("/v2/patients")).status).toBe(200);
    expect((await get("/v2/patients/1")).status).toBe(404);
    events.length = 0;

    // The first refusal: the read ran alongside, but the answer is the refusal.
    const refused = await get("/v2/patients");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("30");
    expect((await refused.json()).error.code).toBe("RATE_LIMIT_EXCEEDED");
    expect(events).toHaveLength(3);
    expect(events.slice(0, 2).sort()).toEqual(["hit started", "list started"]);
    expect(events[2]).toBe("hit counted 3");

    // Refused once in this window: the next request waits for its count and reads nothing.
    events.length = 0;
    hold = gate();
    const pending = get("/v2/patients");
    // Once the hit has started, a read that was going to run alongside it would have started too.
    await untilEvents(events, 1);
    await settle();
    const waiting = [...events];
    hold.open();
    expect(waiting).toEqual(["hit started"]);
    expect((await pending).status).toBe(429);
    expect(events).toEqual(["hit started", "hit counted 4"]);
  });

  it("answers a refused request 429 even when its read fails, and a bad query 400 within the budget", async () => {
    expect((await get("/v2/patients?per_page=0")).status).toBe(400);
    expect((await get("/v2/patients")).status).toBe(200);
    const res = await get("/v2/patients?per_page=0");
    expect(res.status).toBe(429);
    expect((await res.json()).error.code).toBe("RATE_LIMIT_EXCEEDED");
  });

  it("a refused registration lists nothing and writes nothing but its hit", async () => {
    const register = () =>
      fetch(`${url}/v2/patients`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ first_name: "Ada", last_name: `Rate ${events.length}`, date_of_birth: "1980-05-17" }),
      });
    expect((await get("/v2/patients")).status).toBe(200);
    expect((await get("/v2/patients")).status).toBe(200);
    events.length = 0;
    expect((await register()).status).toBe(429);
    // The registration's transaction counted its hit (test/http/rate-limit-writes.test.ts) and listed nothing.
    expect(events).toEqual([]);
    expect(await storage.repositories.rateLimits.count(`v2:org:${ORG}`, new Date("2026-11-22T10:00:00.000Z"))).toBe(3);
    const all = await storage.repositories.patients.list({
      organisationId: ORG,
      status: "all",
      searchTerms: [],
      sort: "created_at",
      order: "desc",
      limit: 10,
      offset: 0,
    });
    expect(all.total).toBe(0);
  });
});
