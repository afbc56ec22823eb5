import { systemClock, type Storage } from "@openpractice/core";
import { createSqliteStorage } from "@openpractice/sqlite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { JobRunner } from "./job-runner.js";
import { holdingLock } from "./lock-lease.js";

const silent = { debug() {}, info() {}, warn() {}, error() {} } as never;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Short leases stay safe because their holder renews them: work that outlasts many leases is never taken over while
// its holder lives, and a holder that stops renewing frees it within one lease.
describe("short leases renewed by a heartbeat", () => {
  let storage: Storage;
  beforeEach(async () => {
    storage = await createSqliteStorage({ filename: ":memory:" });
  });
  afterEach(() => storage.close());

  it("a job running for several leases keeps its lease; another claimer never gets it; it completes once", async () => {
    const jobs = storage.repositories.jobs;
    await jobs.enqueue({ queue: "slow", payload: null, runAt: new Date(Date.now() - 1000) });
    const stolen: number[] = [];
    let runs = 0;
    const runner = new JobRunner({
      storage,
      clock: systemClock,
      ids: { uuid: () => crypto.randomUUID() },
      logger: silent,
      workerId: "a",
      pollIntervalMs: 10,
      leaseMs: 300,
      handlers: new Map([
        [
          "slow",
          async () => {
            runs++;
            // Meanwhile another process tries to claim it, well past the first lease's end.
            for (let i = 0; i < 10; i++) {
              await sleep(100);
              stolen.push(
                ...(await jobs.claim("slow", { limit: 10, now: new Date(), leaseMs: 300, leaseToken: `b${i}` })).map(
                  (j) => j.id,
                ),
              );
            }
          },
        ],
      ]),
    });
    runner.start();
    while (runs === 0) await sleep(10);
    await runner.stop();
    expect(stolen).toEqual([]);
    expect(runs).toBe(1);
    // Completed: nothing to claim, however late.
    expect(
      await jobs.claim("slow", {
        limit: 10,
        now: new Date(Date.now() + 86_400_000),
        leaseMs: 300,
        leaseToken: "later",
      }),
    ).toEqual([]);
  });

  it("a lock is held while the work runs past its ttl, then lapses one ttl after the last renewal", async () => {
    const locks = storage.repositories.locks;
    const lease = { name: "tick", holder: "a", ttlMs: 300 };
    const others: boolean[] = [];
    const ran = await holdingLock(locks, systemClock, lease, async (held) => {
      for (let i = 0; i < 10; i++) {
        await sleep(100);
        others.push(await locks.tryAcquire("tick", "b", new Date(), 300));
        expect(held()).toBe(true);
      }
    });
    expect(ran).toBe(true);
    expect(others).not.toContain(true);
    expect(await holdingLock(locks, systemClock, { ...lease, holder: "b" }, async () => undefined)).toBe(false);
    await sleep(350);
    expect(await holdingLock(locks, systemClock, { ...lease, holder: "b" }, async () => undefined)).toBe(true);
  });

  it("work whose lock was taken over sees held() turn false", async () => {
    const locks = storage.repositories.locks;
    let sawLoss = false;
    await holdingLock(locks, systemClock, { name: "tick", holder: "a", ttlMs: 300 }, async (held) => {
      // Another holder takes it over (as if this process had stalled past its lease).
      await storage.transaction(async (tx) => {
        await tx.locks.release("tick", "a");
        expect(await tx.locks.tryAcquire("tick", "b", new Date(), 60_000)).toBe(true);
      });
      for (let i = 0; i < 10 && !sawLoss; i++) {
        await sleep(50);
        sawLoss = !held();
      }
    });
    expect(sawLoss).toBe(true);
  });
});
