import { MemoryStorage } from "@openpractice/testing";
import { describe, expect, it } from "vitest";
import { RateLimiter, resolvePlanLimits, type Clock } from "@openpractice/core";

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
});
