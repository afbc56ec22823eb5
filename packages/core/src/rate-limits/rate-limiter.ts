import type { Clock } from "../clock.js";
import type { Plan } from "../organisations/organisation.js";
import type { Storage } from "../ports/storage.js";

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** When the current window ends and the budget refills. */
  resetAt: Date;
  /** Whole seconds until resetAt (at least 1); meaningful when not allowed. */
  retryAfterSeconds: number;
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
 * free plan. The plan is cached briefly per instance; the counts never are.
 */
export class RateLimiter {
  private readonly plans = new Map<number, { plan: Plan; readAt: number }>();
  /** Counter key → start of the window in which this process last refused it. */
  private readonly refusedWindows = new Map<string, number>();

  constructor(private readonly deps: { storage: Storage; clock: Clock; planLimits: Readonly<Record<Plan, number>> }) {}

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

  async consume(organisationId: number, bucket: string): Promise<RateLimitDecision> {
    const now = this.deps.clock.now().getTime();
    const windowStart = windowStartOf(now);
    const limit = this.deps.planLimits[await this.planOf(organisationId, now)];
    const key = counterKey(organisationId, bucket);
    const count = await this.deps.storage.repositories.rateLimits.hit(key, new Date(windowStart));
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
