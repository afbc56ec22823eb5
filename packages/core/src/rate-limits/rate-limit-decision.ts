/** What the rate limiter answers for one request: allowed or not, and the budget's state for the headers. */
export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** When the current window ends and the budget refills. */
  resetAt: Date;
  /** Whole seconds until resetAt (at least 1); meaningful when not allowed. */
  retryAfterSeconds: number;
}
