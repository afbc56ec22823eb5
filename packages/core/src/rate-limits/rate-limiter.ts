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

/**
 * Fixed one-minute windows per organisation and bucket, counted in the store
 * so every process shares one budget. Organisations not yet known are on the
 * free plan.
 */
export class RateLimiter {
  constructor(private readonly deps: { storage: Storage; clock: Clock; planLimits: Readonly<Record<Plan, number>> }) {}

  async consume(organisationId: number, bucket: string): Promise<RateLimitDecision> {
    const now = this.deps.clock.now().getTime();
    const windowStart = Math.floor(now / WINDOW_MS) * WINDOW_MS;
    const repos = this.deps.storage.repositories;
    const org = await repos.organisations.findById(organisationId);
    const limit = this.deps.planLimits[org?.plan ?? "free"];
    const count = await repos.rateLimits.hit(`${bucket}:org:${organisationId}`, new Date(windowStart));
    const resetAt = new Date(windowStart + WINDOW_MS);
    return {
      allowed: count <= limit,
      limit,
      remaining: Math.max(0, limit - count),
      resetAt,
      retryAfterSeconds: Math.max(1, Math.ceil((resetAt.getTime() - now) / 1000)),
    };
  }

  /** Drops counters of windows that ended more than an hour ago. */
  async purgeOldWindows(): Promise<number> {
    const before = new Date(this.deps.clock.now().getTime() - 60 * WINDOW_MS);
    return this.deps.storage.repositories.rateLimits.deleteWindowsBefore(before);
  }
}
