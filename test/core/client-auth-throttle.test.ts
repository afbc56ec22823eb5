import { MemoryStorage } from "@openpractice/testing";
import { describe, expect, it } from "vitest";
import { ClientAuthThrottle, ConcurrencyLimit, DomainError } from "@openpractice/core";

const T0 = new Date("2026-05-05T10:00:05.000Z");
const MINUTE = new Date("2026-05-05T10:00:00.000Z");

function throttleAt(now: Date) {
  const storage = new MemoryStorage();
  const clock = { now: () => now };
  const counts = (key: string, window = MINUTE) => storage.repositories.rateLimits.count(key, window);
  return { throttle: new ClientAuthThrottle({ storage, clock }), clock, counts, storage };
}

const throttledLimit = (error: unknown) =>
  error instanceof DomainError && error.code === "CLIENT_AUTH_THROTTLED" ? error.details.limit : error;

describe("ClientAuthThrottle: reserve, then settle", () => {
  it("counts an attempt as a failure of the client and the address before it is checked; a success takes it back", async () => {
    const { throttle, counts } = throttleAt(T0);
    const attempt = await throttle.reserve("opc_a", "10.0.0.1");
    expect([await counts("oauth-fail:client:opc_a"), await counts("oauth-fail:addr:10.0.0.1")]).toEqual([1, 1]);
    await attempt.settle(false);
    expect([await counts("oauth-fail:client:opc_a"), await counts("oauth-fail:addr:10.0.0.1")]).toEqual([0, 0]);
    await (await throttle.reserve("opc_a", "10.0.0.1")).settle(true);
    expect([await counts("oauth-fail:client:opc_a"), await counts("oauth-fail:addr:10.0.0.1")]).toEqual([1, 1]);
  });

  it("refuses the 11th attempt on a client while 10 are still being checked, and counts nothing for it", async () => {
    const { throttle, counts } = throttleAt(T0);
    const pending = await Promise.all(Array.from({ length: 10 }, (_, i) => throttle.reserve("opc_a", `10.0.0.${i}`)));
    expect(await throttle.reserve("opc_a", "10.0.1.1").catch(throttledLimit)).toBe(10);
    expect(await counts("oauth-fail:addr:10.0.1.1")).toBe(0);
    // Two of the ten were right: two more attempts may be checked.
    await pending[0]?.settle(false);
    await pending[1]?.settle(false);
    await throttle.reserve("opc_a", "10.0.1.1");
    await throttle.reserve("opc_a", "10.0.1.2");
    expect(await throttle.reserve("opc_a", "10.0.1.3").catch(throttledLimit)).toBe(10);
    expect(await counts("oauth-fail:client:opc_a")).toBe(10);
  });

  it("over the address limit, takes back the client's hit it reserved on the way", async () => {
    const { throttle, counts } = throttleAt(T0);
    await Promise.all(Array.from({ length: 30 }, (_, i) => throttle.reserve(`opc_${i}`, "10.0.0.1")));
    expect(await throttle.reserve("opc_new", "10.0.0.1").catch(throttledLimit)).toBe(30);
    expect(await counts("oauth-fail:client:opc_new")).toBe(0);
    expect(await counts("oauth-fail:addr:10.0.0.1")).toBe(30);
  });

  it("settles in the window it reserved in, when the minute turns during the check", async () => {
    let now = T0;
    const storage = new MemoryStorage();
    const throttle = new ClientAuthThrottle({ storage, clock: { now: () => now } });
    const attempt = await throttle.reserve("opc_a", undefined);
    now = new Date("2026-05-05T10:01:00.500Z");
    await attempt.settle(false);
    expect(await storage.repositories.rateLimits.count("oauth-fail:client:opc_a", MINUTE)).toBe(0);
  });
});

describe("ConcurrencyLimit", () => {
  it("runs at most the limit at once, in arrival order, and frees a place when a task fails", async () => {
    const limit = new ConcurrencyLimit(2);
    const order: number[] = [];
    let running = 0;
    let most = 0;
    const results = await Promise.allSettled(
      Array.from({ length: 7 }, (_, i) =>
        limit.run(async () => {
          running++;
          most = Math.max(most, running);
          order.push(i);
          await new Promise((r) => setImmediate(r));
          running--;
          if (i === 1) throw new Error("failed task");
          return i;
        }),
      ),
    );
    expect(most).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(results.filter((r) => r.status === "rejected")).toHaveLength(1);
    expect(limit.stats()).toEqual({ started: 7, running: 0, waiting: 0 });
  });

  it("reports the tasks waiting for a place", async () => {
    const limit = new ConcurrencyLimit(1);
    let release = () => {};
    const first = limit.run(() => new Promise<void>((r) => (release = r)));
    const second = limit.run(async () => undefined);
    await new Promise((r) => setImmediate(r));
    expect(limit.stats()).toEqual({ started: 1, running: 1, waiting: 1 });
    release();
    await Promise.all([first, second]);
    expect(limit.stats()).toEqual({ started: 2, running: 0, waiting: 0 });
  });
});
