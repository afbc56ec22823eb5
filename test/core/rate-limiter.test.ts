import { MemoryStorage } from "@openpractice/testing";
import { describe, expect, it } from "vitest";
import { RateLimiter, resolvePlanLimits, type Clock, type Storage } from "@openpractice/core";

/** The store's counter writes, observed (the hits each added), not replaced. */
function observeReservations(storage: Storage): number[] {
  const added: number[] = [];
  const store = storage.repositories.rateLimits;
  const hit = store.hit.bind(store);
  store.hit = (key, windowStart, hits = 1) => {
    added.push(hits);
    return hit(key, windowStart, hits);
  };
  return added;
}

/** A limiter on a fresh in-memory store at 10:00:05, budget `free` a minute, its counter writes observed. */
function reservingLimiter(free: number) {
  const storage = new MemoryStorage();
  const clock = { now: new Date("2026-05-05T10:00:05.000Z") };
  const limiter = new RateLimiter({
    storage,
    clock: { now: () => clock.now },
    planLimits: resolvePlanLimits({ free }),
  });
  return { storage, clock, limiter, added: observeReservations(storage) };
}

describe("rate limiter (fixed one-minute windows in the store)", () => {
  it("allows the plan's budget, refuses beyond it, and refills in the next window", async () => {
    const storage = new MemoryStorage();
    let now = new Date("2026-05-05T10:00:45.000Z");
    const clock: Clock = { now: () => now };
    await storage.repositories.organisations.ensure({ id: 1, name: "o", plan: "free", now });
    const limiter = new RateLimiter({ storage, clock, planLimits: resolvePlanLimits({ free: 3 }) });
    const decisions = [];
    for (let i = 0; i < 4; i++) decisions.push(await limiter.consume(1, "v2"));
    expect(decisions.map((d) => [d.allowed, d.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    expect(decisions[3]).toMatchObject({
      limit: 3,
      retryAfterSeconds: 15,
      resetAt: new Date("2026-05-05T10:01:00.000Z"),
    });
    now = new Date("2026-05-05T10:01:00.000Z");
    expect(await limiter.consume(1, "v2")).toMatchObject({ allowed: true, remaining: 2 });
    expect((await limiter.consume(999, "v2")).limit).toBe(3); // unknown organisation: the free plan
    now = new Date("2026-05-05T12:00:00.000Z");
    expect(await limiter.purgeOldWindows()).toBe(3); // org 1 at 10:00 and 10:01, org 999 at 10:01
    await storage.close();
  });

  it("remembers, per window and bucket, that this process refused an organisation", async () => {
    const storage = new MemoryStorage();
    let now = new Date("2026-05-05T10:00:10.000Z");
    const limiter = new RateLimiter({ storage, clock: { now: () => now }, planLimits: resolvePlanLimits({ free: 1 }) });
    await limiter.consume(1, "v2");
    expect(limiter.refusedInCurrentWindow(1, "v2")).toBe(false); // within the budget
    expect((await limiter.consume(1, "v2")).allowed).toBe(false);
    expect(limiter.refusedInCurrentWindow(1, "v2")).toBe(true);
    expect(limiter.refusedInCurrentWindow(1, "other")).toBe(false);
    expect(limiter.refusedInCurrentWindow(2, "v2")).toBe(false);
    now = new Date("2026-05-05T10:01:00.000Z"); // the next window refills the budget
    expect(limiter.refusedInCurrentWindow(1, "v2")).toBe(false);
    await storage.close();
  });

  it("reserves hits a few at a time: one process's requests still see every count once, in order", async () => {
    const { storage, limiter, added } = reservingLimiter(1000);
    const remaining: number[] = [];
    for (let i = 0; i < 300; i++) remaining.push((await limiter.consume(1, "v2")).remaining);
    expect(remaining).toEqual(Array.from({ length: 300 }, (_, i) => 999 - i));
    // 1, 2, 4, … 64 (127 hits), then 64 each: 10 writes of the counter for 300 requests, none larger than 64.
    expect(added.slice(0, 7)).toEqual([1, 2, 4, 8, 16, 32, 64]);
    expect(added).toHaveLength(10);
    expect(Math.max(...added)).toBe(64);
    // The counter holds what was reserved: the 300 handed out and the rest of the last reservation.
    expect(await storage.repositories.rateLimits.count("v2:org:1", new Date("2026-05-05T10:00:00.000Z"))).toBe(
      added.reduce((a, b) => a + b, 0),
    );
    await storage.close();
  });

  it("requests arriving together share one reservation and get distinct counts", async () => {
    const { storage, limiter, added } = reservingLimiter(1000);
    for (let i = 0; i < 20; i++) await limiter.consume(1, "v2"); // the reservations have grown to 32
    const burst = await Promise.all(Array.from({ length: 30 }, () => limiter.consume(1, "v2")));
    expect(burst.map((d) => d.remaining).sort((a, b) => b - a)).toEqual(Array.from({ length: 30 }, (_, i) => 979 - i));
    expect(added).toEqual([1, 2, 4, 8, 16, 32]);
    await storage.close();
  });

  it("counts one hit at a time as the budget runs out, and allows exactly the budget", async () => {
    const { storage, limiter, added } = reservingLimiter(60);
    const decisions = [];
    for (let i = 0; i < 65; i++) decisions.push(await limiter.consume(1, "v2"));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(60);
    expect(decisions.slice(60).every((d) => !d.allowed && d.remaining === 0)).toBe(true);
    // A reservation takes at most an eighth of what is left: under 16 left, one hit per request.
    expect(Math.max(...added)).toBeLessThanOrEqual(7);
    expect(added.slice(-10)).toEqual(Array(10).fill(1));
    expect(limiter.refusedInCurrentWindow(1, "v2")).toBe(true);
    await storage.close();
  });

  it("processes sharing the counter never allow more than the budget together, and refuse early by little", async () => {
    const storage = new MemoryStorage();
    const now = new Date("2026-05-05T10:00:05.000Z");
    const clock = { now: () => now };
    const limiters = [0, 1, 2].map(
      () => new RateLimiter({ storage, clock, planLimits: resolvePlanLimits({ free: 300 }) }),
    );
    let allowed = 0;
    const refusedAt: number[] = [];
    for (let i = 0; i < 400; i++) {
      // An uneven mix: the first process takes half the requests.
      const limiter = limiters[[0, 1, 0, 2][i % 4] as number] as RateLimiter;
      const decision = await limiter.consume(1, "v2");
      if (decision.allowed) allowed++;
      else refusedAt.push(i);
    }
    expect(allowed).toBeLessThanOrEqual(300);
    expect(allowed).toBeGreaterThanOrEqual(290);
    // Refusals come only at the end of the budget, never while plenty is left.
    expect(Math.min(...refusedAt)).toBeGreaterThanOrEqual(285);
    await storage.close();
  });

  it("starts afresh in the next window: the reservation of the last one is not carried over", async () => {
    const { storage, clock, limiter, added } = reservingLimiter(1000);
    for (let i = 0; i < 10; i++) await limiter.consume(1, "v2"); // reservations 1, 2, 4, 8: five left unused
    clock.now = new Date("2026-05-05T10:01:00.000Z");
    expect(await limiter.consume(1, "v2")).toMatchObject({
      remaining: 999,
      resetAt: new Date("2026-05-05T10:02:00.000Z"),
    });
    expect(added).toEqual([1, 2, 4, 8, 1]);
    await storage.close();
  });
});
