import type { Clock } from "../kernel/clock.js";
import type { Plan } from "../organisations/organisation.js";
import type { RateLimitStore } from "./rate-limit-store.js";
import type { Storage } from "../kernel/storage.js";
import type { RateLimitServiceRepositories } from "./rate-limit-service-repositories.js";
import { runInCountedWrite, type CountedWriteScope } from "./counted-write.js";
import { HitLeases } from "./hit-leases.js";
import type { RateLimitDecision } from "./rate-limit-decision.js";

/** A write run by `runCounted`: its decision, and how the write ended (absent when the budget refused it). */
export interface CountedRun<T> {
  decision: RateLimitDecision;
  outcome?: { ok: true; value: T } | { ok: false; error: unknown };
}

const settle = <T>(fn: () => Promise<T>): Promise<NonNullable<CountedRun<T>["outcome"]>> =>
  fn().then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );

/** Hits added to a counter at `now`: the counts count − size + 1 … count of the window starting at windowStart. */
interface Reservation {
  now: number;
  windowStart: number;
  size: number;
  count: number;
}

const WINDOW_MS = 60_000;
/** Start (ms) of the fixed window holding the instant `ms`. */
const windowStartOf = (ms: number) => Math.floor(ms / WINDOW_MS) * WINDOW_MS;
const counterKey = (organisationId: number, bucket: string) => `${bucket}:org:${organisationId}`;
/** How long a process trusts the plan it read; a plan change takes effect within this. */
const PLAN_CACHE_MS = 30_000;

/**
 * Fixed one-minute windows per organisation and bucket, counted in the store
 * so every process shares one budget. Organisations not yet known are on the
 * free plan. The plan is cached briefly per instance. Hits are reserved from
 * the store's counter a few at a time and handed out here (HitLeases), so most
 * requests write nothing for their hit; the counter holds every hit reserved,
 * so the processes sharing it never allow more than the budget together.
 */
export class RateLimiter {
  private readonly plans = new Map<number, { plan: Plan; readAt: number }>();
  /** Counter key → start of the window in which this process last refused it. */
  private readonly refusedWindows = new Map<string, number>();
  private readonly leases = new HitLeases();
  /** Counter key → the reservation under way; other requests of the key wait for it rather than reserve too. */
  private readonly reserving = new Map<string, Promise<void>>();

  constructor(
    private readonly deps: {
      storage: Storage<RateLimitServiceRepositories>;
      clock: Clock;
      planLimits: Readonly<Record<Plan, number>>;
    },
  ) {}

  /** The organisation's plan, read at most every PLAN_CACHE_MS (the counts themselves are never cached). */
  private async planOf(organisationId: number, now: number): Promise<Plan> {
    const cached = this.plans.get(organisationId);
    if (cached && now - cached.readAt < PLAN_CACHE_MS) return cached.plan;
    const org = await this.deps.storage.repositories.organisations.findById(organisationId);
    const plan = org?.plan ?? "free";
    if (this.plans.size > 10_000) this.plans.clear();
    this.plans.set(organisationId, { plan, readAt: now });
    return plan;
  }

  /** Counts one request: from this process's reserved hits when one is left, else by reserving more. */
  async consume(organisationId: number, bucket: string): Promise<RateLimitDecision> {
    const limit = await this.limitOf(organisationId);
    const key = counterKey(organisationId, bucket);
    for (;;) {
      const leased = this.takeLeased(key, limit);
      if (leased) return leased;
      const pending = this.reserving.get(key);
      if (!pending) return this.reserve(key, limit);
      await pending;
    }
  }

  /** A decision from a hit this process reserved earlier in the current window, if one is left. */
  private takeLeased(key: string, limit: number): RateLimitDecision | undefined {
    const now = this.deps.clock.now().getTime();
    const windowStart = windowStartOf(now);
    const count = this.leases.take(key, windowStart);
    return count === undefined ? undefined : this.decision(key, count, limit, windowStart, now);
  }

  /** Reserves the next hits of `key` in one write of the counter and decides with the first. */
  private async reserve(key: string, limit: number): Promise<RateLimitDecision> {
    const now = this.deps.clock.now().getTime();
    const windowStart = windowStartOf(now);
    const size = this.leases.sizeOfNext(key, windowStart, limit);
    const reserved = this.deps.storage.repositories.rateLimits.hit(key, new Date(windowStart), size);
    const done = reserved.then(
      () => undefined,
      () => undefined,
    );
    this.reserving.set(key, done);
    try {
      const count = this.leases.hold(key, windowStart, size, await reserved, limit);
      return this.decision(key, count, limit, windowStart, now);
    } finally {
      if (this.reserving.get(key) === done) this.reserving.delete(key);
    }
  }

  /**
   * Counts one write request and runs it if the budget allows. On an engine with one writer
   * (`capabilities.singleWriter`) the hit is counted by the write's first transaction, so the request commits once
   * (countedWritesStorage): refused there, that transaction commits only the hit. A request that ends without
   * committing a transaction (refused by validation, say, or rolled back) has its hit counted on its own
   * afterwards; over the budget it is refused whatever it answered, and it changed nothing, as it wrote only
   * through the transaction that rolled back. Elsewhere, and for an organisation this process refused in this
   * window, the hit is counted first and the write runs only if allowed.
   *
   * Only for work that writes through `storage.transaction` alone and calls no other system before it: anything
   * else would happen before the budget is consulted.
   */
  async runCounted<T>(organisationId: number, bucket: string, fn: () => Promise<T>): Promise<CountedRun<T>> {
    if (!this.deps.storage.capabilities.singleWriter || this.refusedInCurrentWindow(organisationId, bucket)) {
      const decision = await this.consume(organisationId, bucket);
      return decision.allowed ? { decision, outcome: await settle(fn) } : { decision };
    }
    // The plan is read before any transaction: inside one, a read outside it would wait for SQLite's one connection.
    const limit = await this.limitOf(organisationId);
    const key = counterKey(organisationId, bucket);
    // A hit reserved earlier in this window is already committed: the write runs as it is.
    const leased = this.takeLeased(key, limit);
    if (leased) return { decision: leased, outcome: await settle(fn) };
    // The write's transaction reserves the next hits, as a reservation on its own would, unless another is under
    // way: then it counts its one hit (sharing the commit rather than waiting for that reservation).
    const reserves = !this.reserving.has(key);
    let reservation: Reservation | undefined;
    const scope: CountedWriteScope = {
      decide: async (counters) => {
        const reserved = await this.reserveWith(counters, key, reserves ? undefined : 1, limit);
        reservation = reserved;
        return this.decision(key, reserved.count - reserved.size + 1, limit, reserved.windowStart, reserved.now);
      },
      state: "pending",
    };
    // settle never rejects: requests waiting for this reservation (consume) resume once its hits are held.
    const counting = runInCountedWrite(scope, () => settle(fn)).finally(() => {
      if (!reserves) return;
      // Committed: the reserved hits past the first are this process's to hand out.
      if (scope.state === "counted" && reservation)
        this.leases.hold(key, reservation.windowStart, reservation.size, reservation.count, limit);
      this.reserving.delete(key);
    });
    if (reserves)
      this.reserving.set(
        key,
        counting.then(() => undefined),
      );
    let outcome = await counting;
    const { state } = scope;
    const counted = state === "counted" ? scope.decision : undefined;
    // Later transactions in this async context (work the request left behind) run unchanged.
    scope.state = "closed";
    // A transaction still running would count the hit too, and write after the answer: a defect of the handler.
    if (state === "claimed")
      outcome = { ok: false, error: new Error("A counted write ended before its transaction: await it") };
    const decision = counted ?? (await this.consume(organisationId, bucket));
    return decision.allowed ? { decision, outcome } : { decision };
  }

  private async limitOf(organisationId: number): Promise<number> {
    return this.deps.planLimits[await this.planOf(organisationId, this.deps.clock.now().getTime())];
  }

  /**
   * Adds `size` hits (by default the next reservation's size) to the counter of `key` through `counters` (a
   * transaction's): the counts count − size + 1 … count are the caller's.
   */
  private async reserveWith(
    counters: RateLimitStore,
    key: string,
    size: number | undefined,
    limit: number,
  ): Promise<Reservation> {
    const now = this.deps.clock.now().getTime();
    const windowStart = windowStartOf(now);
    const hits = size ?? this.leases.sizeOfNext(key, windowStart, limit);
    return { now, windowStart, size: hits, count: await counters.hit(key, new Date(windowStart), hits) };
  }

  /** The answer for the hit counted `count` in the window starting at `windowStart`; a refusal is remembered. */
  private decision(key: string, count: number, limit: number, windowStart: number, now: number): RateLimitDecision {
    const resetAt = new Date(windowStart + WINDOW_MS);
    const allowed = count <= limit;
    if (!allowed) {
      if (this.refusedWindows.size > 10_000) this.refusedWindows.clear();
      this.refusedWindows.set(key, windowStart);
    }
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - count),
      resetAt,
      retryAfterSeconds: Math.max(1, Math.ceil((resetAt.getTime() - now) / 1000)),
    };
  }

  /**
   * Whether this process refused the organisation in this bucket during the
   * current window. Another process may have refused it without this one
   * knowing; callers use this only to choose how eagerly to start work.
   */
  refusedInCurrentWindow(organisationId: number, bucket: string): boolean {
    return (
      this.refusedWindows.get(counterKey(organisationId, bucket)) === windowStartOf(this.deps.clock.now().getTime())
    );
  }

  /** Drops counters of windows that ended more than an hour ago. */
  async purgeOldWindows(): Promise<number> {
    const before = new Date(this.deps.clock.now().getTime() - 60 * WINDOW_MS);
    return this.deps.storage.repositories.rateLimits.deleteWindowsBefore(before);
  }
}
