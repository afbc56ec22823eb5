import { errorsOf } from "../kernel/domain-error.js";
import { DomainError } from "../kernel/domain-error.js";
import type { RateLimitDecision } from "./rate-limit-decision.js";

/** Errors of the per-organisation request budget. Codes are public: never renamed or reused. */
export const RATE_LIMIT_ERROR_CODES = [
  /** The organisation has used its request budget for the current window. */
  "RATE_LIMIT_EXCEEDED",
] as const;

/** Throws one of the codes above (and only those). */
export const rateLimitError = errorsOf(RATE_LIMIT_ERROR_CODES);

/** RATE_LIMIT_EXCEEDED for a refused decision; its details name the limit and the seconds to wait. */
export class RateLimitExceeded extends DomainError {
  constructor(readonly decision: RateLimitDecision) {
    super("RATE_LIMIT_EXCEEDED", `Rate limit of ${decision.limit} requests per minute exceeded`, {
      limit: decision.limit,
      retry_after_seconds: decision.retryAfterSeconds,
    });
  }
}
