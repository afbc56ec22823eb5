import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { createPractice, domainEvent, type Practice, type Repositories, type Storage } from "@openpractice/core";
import { createH3NodeServer } from "@openpractice/h3";
import { createHttpHandler, createJwtAuthenticator } from "@openpractice/http";
import { signAccessToken } from "@openpractice/runtime";
import { createSqliteStorage } from "@openpractice/sqlite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { testPracticeKeys } from "../support/practice-keys.js";

const SECRET = "rate-limit-writes-secret-0123456789-abcdefghij";
const ORG = 52;
const LIMIT = 3;
const NOW = new Date("2026-11-22T10:00:30.000Z");
const WINDOW = new Date("2026-11-22T10:00:00.000Z");
const COUNTER = `v2:org:${ORG}`;

/** A Practice on `store` whose every plan allows `limit` requests a minute, at the fixed instant NOW. */
const practiceOn = (store: Storage, limit: number) =>
  createPractice({
    keys: testPracticeKeys(),
    storage: store,
    clock: { now: () => NOW },
    planLimits: { free: limit, professional: limit, enterprise: limit },
  });

// A write route marked hitWithWrite (v2 patient create and update) on SQLite, whose one writer lets the write's
// own transaction count the request's rate-limit hit: one commit per request instead of two. Real SQLite storage
// and a real loopback server; the storage's calls are observed, not replaced.
describe("v2 writes and the rate-limit hit", () => {
  let storage: Storage;
  let practice: Practice;
  let server: Server;
  let url: string;
  let token: string;
  /** Hits counted on their own (outside a transaction) and transactions started. */
  const calls: string[] = [];
  /** The hits each write's transaction added to the counter. */
  const transactionHits: number[] = [];

  const start = async (observed: Storage, limit = LIMIT) => {
    practice = practiceOn(observed, limit);
    server = createH3NodeServer(
      createHttpHandler({ practice, authenticator: createJwtAuthenticator({ secret: SECRET }) }),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };

  beforeEach(async () => {
    calls.length = 0;
    transactionHits.length = 0;
    storage = await createSqliteStorage({ filename: ":memory:" });
    const hits = storage.repositories.rateLimits;
    const hit = hits.hit.bind(hits);
    hits.hit = (key, windowStart, n) => {
      calls.push("hit on its own");
      return hit(key, windowStart, n);
    };
    const transaction = storage.transaction.bind(storage);
    storage.transaction = (fn) => {
      calls.push("transaction");
      return transaction((tx) => {
        const inTransaction = tx.rateLimits.hit.bind(tx.rateLimits);
        tx.rateLimits.hit = (key, windowStart, n) => {
          transactionHits.push(n ?? 1);
          return inTransaction(key, windowStart, n);
        };
        return fn(tx);
      });
    };
    token = await signAccessToken(SECRET, { organisationId: ORG, userId: 7, scope: "read write" });
  });

  afterEach(async () => {
    await new Promise((resolve) => server.close(resolve));
    await storage.close();
  });

  const send = (method: string, path: string, body: unknown) =>
    fetch(url + path, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const register = (lastName: string, firstName = "Ada") =>
    send("POST", "/v2/patients", { first_name: firstName, last_name: lastName, date_of_birth: "1980-05-17" });
  const counted = () => storage.repositories.rateLimits.count(COUNTER, WINDOW);
  const stored = async () => ({
    patients: (
      await storage.repositories.patients.list({
        organisationId: ORG,
        status: "all",
        searchTerms: [],
        sort: "created_at",
        order: "desc",
        limit: 50,
        offset: 0,
      })
    ).total,
    events: (await storage.repositories.outbox.listPending(50)).length,
    entries: (await practice.audit.list(ORG, {})).total,
  });

  it("counts a registration's hit in its own transaction: one transaction, no hit on its own", async () => {
    await start(storage);
    const res = await register("Lovelace");
    expect(res.status).toBe(201);
    expect(calls).toEqual(["transaction"]);
    expect(res.headers.get("x-ratelimit-limit")).toBe(String(LIMIT));
    expect(res.headers.get("x-ratelimit-remaining")).toBe(String(LIMIT - 1));
    expect(await counted()).toBe(1);
    expect(await stored()).toEqual({ patients: 1, events: 1, entries: 1 });
  });

  it("reserves the next hits with the write that finds none left: 1, 2, 4, … hits, every count in order", async () => {
    const roomy = 1_000;
    await start(storage, roomy);
    const remaining: number[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await register(`Sequence ${i}`);
      expect(res.status).toBe(201);
      remaining.push(Number(res.headers.get("x-ratelimit-remaining")));
    }
    expect(remaining).toEqual(Array.from({ length: 20 }, (_, i) => roomy - 1 - i));
    // Writes 1, 2, 4, 8 and 16 reserved (counts 1, 2–3, 4–7, 8–15, 16–31); the others used a reserved hit.
    expect(transactionHits).toEqual([1, 2, 4, 8, 16]);
    expect(calls.filter((c) => c === "hit on its own")).toEqual([]);
    expect(calls.filter((c) => c === "transaction")).toHaveLength(20);
    expect(await counted()).toBe(31);
    expect(await stored()).toEqual({ patients: 20, events: 20, entries: 20 });
  });

  it("keeps no reservation of a write whose transaction rolled back: the hit is reserved on its own", async () => {
    await start(storage, 1_000);
    expect((await register("Kept")).status).toBe(201);
    // A missing patient: its transaction reserved 2 hits and rolled back with them; had they been kept, the hit
    // would have come from them. Instead the limiter reserves on its own (counts 2–3) and answers with count 2.
    const missing = await send("PATCH", "/v2/patients/999", { first_name: "Nobody" });
    expect(missing.status).toBe(404);
    expect(missing.headers.get("x-ratelimit-remaining")).toBe("998");
    expect(calls.filter((c) => c === "hit on its own")).toEqual(["hit on its own"]);
    // The next write takes count 3 from that reservation: its transaction adds no hit.
    const next = await register("Next");
    expect(next.headers.get("x-ratelimit-remaining")).toBe("997");
    expect(transactionHits).toEqual([1, 2]);
    expect(await counted()).toBe(3);
  });

  it("refuses over the budget with 429: the counter moves, nothing else is written", async () => {
    await start(storage);
    for (const name of ["One", "Two", "Three"]) expect((await register(name)).status).toBe(201);
    calls.length = 0;
    const refused = await register("Four");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("30");
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
    expect((await refused.json()).error).toMatchObject({
      code: "RATE_LIMIT_EXCEEDED",
      details: { limit: LIMIT, retry_after_seconds: 30 },
    });
    // The transaction that counted the refusal committed the hit alone: no patient, event or audit entry.
    expect(calls).toEqual(["transaction"]);
    expect(await counted()).toBe(LIMIT + 1);
    expect(await stored()).toEqual({ patients: LIMIT, events: LIMIT, entries: LIMIT });

    // Refused once in this window: the next write counts its hit first and starts no transaction.
    calls.length = 0;
    const again = await send("PATCH", "/v2/patients/1", { first_name: "Augusta" });
    expect(again.status).toBe(429);
    expect(calls).toEqual(["hit on its own"]);
    expect(await counted()).toBe(LIMIT + 2);
    expect(await stored()).toEqual({ patients: LIMIT, events: LIMIT, entries: LIMIT });
  });

  it("counts every answer once: a duplicate (its transaction committed), a bad body and a missing patient (none)", async () => {
    await start(storage);
    expect((await register("Byron")).status).toBe(201);
    calls.length = 0;
    const duplicate = await register("Byron");
    expect(duplicate.status).toBe(409);
    expect(calls).toEqual(["transaction"]);
    expect(await counted()).toBe(2);

    // Refused before any transaction: its hit is counted on its own afterwards.
    calls.length = 0;
    const invalid = await send("POST", "/v2/patients", { first_name: "Ada" });
    expect(invalid.status).toBe(400);
    expect((await invalid.json()).error.code).toBe("VALIDATION_FAILED");
    expect(invalid.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(calls).toEqual(["hit on its own"]);
    expect(await counted()).toBe(3);

    // Over the budget now: the answer is 429, not the 404 the update would have answered; its transaction
    // committed the hit alone.
    calls.length = 0;
    const missing = await send("PATCH", "/v2/patients/999", { first_name: "Nobody" });
    expect(missing.status).toBe(429);
    expect(calls).toEqual(["transaction"]);
    expect(await counted()).toBe(4);
    expect(await stored()).toEqual({ patients: 1, events: 1, entries: 2 });
  });

  it("re-counts the hit on its own when the write's transaction rolls back (a missing patient: 404)", async () => {
    await start(storage);
    const missing = await send("PATCH", "/v2/patients/999", { first_name: "Nobody" });
    expect(missing.status).toBe(404);
    expect(missing.headers.get("x-ratelimit-remaining")).toBe(String(LIMIT - 1));
    // The transaction counted the hit, rolled back with it, and the limiter counted it again on its own.
    expect(calls).toEqual(["transaction", "hit on its own"]);
    expect(await counted()).toBe(1);
  });

  it("shares commits: concurrent registrations within the budget each count once", async () => {
    const roomy = LIMIT * 10;
    await start(storage, roomy);
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => register(`Group ${i}`)));
    expect(answers.map((r) => r.status)).toEqual(Array(12).fill(201));
    const remaining = answers.map((r) => Number(r.headers.get("x-ratelimit-remaining"))).sort((a, b) => a - b);
    // Each request saw its own count: 1..12 once each.
    expect(remaining).toEqual(Array.from({ length: 12 }, (_, i) => roomy - 12 + i));
    expect(calls.filter((c) => c === "hit on its own")).toEqual([]);
    // The counter holds every hit the transactions added, a reservation's unused hits among them.
    expect(await counted()).toBe(transactionHits.reduce((a, b) => a + b, 0));
    expect(await counted()).toBeGreaterThanOrEqual(12);
    expect(await stored()).toEqual({ patients: 12, events: 12, entries: 12 });
  });

  it("shares commits across the budget's edge: allowed and refused registrations in one group", async () => {
    await start(storage);
    const answers = await Promise.all(Array.from({ length: 2 * LIMIT }, (_, i) => register(`Edge ${i}`)));
    expect(answers.map((r) => r.status).sort()).toEqual([...Array(LIMIT).fill(201), ...Array(LIMIT).fill(429)]);
    // (Requests that arrive after the first refusal count their hit first, on their own.)
    expect(await counted()).toBe(2 * LIMIT);
    expect(await stored()).toEqual({ patients: LIMIT, events: LIMIT, entries: LIMIT });
  });

  it("refuses an unknown organisation's first write without creating the organisation", async () => {
    await start(storage, 0);
    expect((await register("Nobody")).status).toBe(429);
    expect(await counted()).toBe(1);
    expect(await storage.repositories.organisations.findById(ORG)).toBeUndefined();
  });

  it("closes the connection of a body too large even when the answer is 429", async () => {
    await start(storage);
    for (const name of ["One", "Two", "Three"]) expect((await register(name)).status).toBe(201);
    const huge = await send("POST", "/v2/patients", {
      first_name: "Ada",
      last_name: "Large",
      date_of_birth: "1980-05-17",
      notes: "x".repeat(1_200_000),
    });
    expect(huge.status).toBe(429);
    // The body was not read to its end: the connection cannot carry another request.
    expect(huge.headers.get("connection")).toBe("close");
    expect(await counted()).toBe(LIMIT + 1);
  });

  it("on an engine with several writers, counts the hit on its own before the write", async () => {
    // The same SQLite store presented as a server engine would be: no singleWriter capability.
    const several: Storage = Object.create(storage) as Storage;
    Object.defineProperty(several, "capabilities", { value: { ...storage.capabilities, singleWriter: false } });
    await start(several);
    const res = await register("Hopper", "Grace");
    expect(res.status).toBe(201);
    expect(calls).toEqual(["hit on its own", "transaction"]);
    expect(await counted()).toBe(1);
  });
});

// RateLimiter.runCounted in process, without HTTP: what a handler marked hitWithWrite must not do, and what
// happens when it does.
describe("counted writes in process", () => {
  let storage: Storage;
  let practice: Practice;
  const event = (n: number) => domainEvent("patient.created", { organisation_id: ORG, patient_id: n }, NOW);

  beforeEach(async () => {
    storage = await createSqliteStorage({ filename: ":memory:" });
    practice = practiceOn(storage, 1);
  });
  afterEach(() => storage.close());

  const counted = () => storage.repositories.rateLimits.count(COUNTER, WINDOW);
  const events = async () => (await storage.repositories.outbox.listPending(50)).length;
  const write = (n: number) => practice.storage.transaction((tx) => tx.outbox.append(event(n)));

  it("refuses a refused request's later transactions too", async () => {
    expect((await practice.rateLimiter.runCounted(ORG, "v2", () => write(1))).decision.allowed).toBe(true);
    const later: unknown[] = [];
    const refused = await practice.rateLimiter.runCounted(ORG, "v2", async () => {
      await write(2).catch((error: unknown) => later.push(error));
      await write(3).catch((error: unknown) => later.push(error));
    });
    expect(refused.decision.allowed).toBe(false);
    expect(refused.outcome).toBeUndefined();
    expect(later.map((e) => (e as Error).constructor.name)).toEqual(["CountedWriteRefused", "CountedWriteRefused"]);
    expect(await counted()).toBe(2);
    expect(await events()).toBe(1);
  });

  it("counts the hit once when a rolled-back transaction is followed by one that commits", async () => {
    const run = await practice.rateLimiter.runCounted(ORG, "v2", async () => {
      await practice.storage
        .transaction(async (tx) => {
          await tx.outbox.append(event(1));
          throw new Error("rolled back");
        })
        .catch(() => undefined);
      await write(2);
      return "done";
    });
    expect(run.decision).toMatchObject({ allowed: true, remaining: 0 });
    expect(run.outcome).toEqual({ ok: true, value: "done" });
    expect(await counted()).toBe(1);
    expect(await events()).toBe(1);
  });

  it("counts the hit in the run that commits when the engine runs a transaction again (the discarded run rolled its hit back)", async () => {
    // A store that, like an engine ending a transaction on a conflict, runs each body once in a transaction it
    // rolls back and then again in one that commits (the storage contract allows a few runs).
    const conflict = new Error("conflict: run again");
    const rerunning: Storage = Object.create(storage) as Storage;
    let runs = 0;
    Object.defineProperty(rerunning, "transaction", {
      value: async <T>(fn: (tx: Repositories) => Promise<T>): Promise<T> => {
        await storage
          .transaction(async (tx) => {
            runs++;
            await fn(tx);
            throw conflict;
          })
          .catch((error: unknown) => {
            if (error !== conflict) throw error;
          });
        runs++;
        return storage.transaction(fn);
      },
    });
    practice = practiceOn(rerunning, 5);
    const run = await practice.rateLimiter.runCounted(ORG, "v2", () => write(1));
    expect(runs).toBe(2);
    expect(run.decision).toMatchObject({ allowed: true, remaining: 4 });
    expect(await counted()).toBe(1);
    expect(await events()).toBe(1);
  });

  it("answers a handler that does not await its transaction with an error", async () => {
    practice = practiceOn(storage, 10);
    let inFlight: Promise<void> | undefined;
    const run = await practice.rateLimiter.runCounted(ORG, "v2", async () => {
      inFlight = write(1);
    });
    await inFlight;
    expect(run.outcome).toMatchObject({ ok: false });
    expect(String((run.outcome as { error: unknown }).error)).toContain("ended before its transaction");
  });
});
