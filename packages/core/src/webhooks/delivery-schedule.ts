/**
 * Spec 6.4 as data: the delay before each attempt. Attempt 1 goes at once,
 * then after 15 s, 1 min, 10 min, 1 h and 6 h; after the sixth failure the
 * delivery is failed and never tried again.
 */
export const WEBHOOK_RETRY_DELAYS_MS: readonly number[] = Object.freeze([
  0, 15_000, 60_000, 600_000, 3_600_000, 21_600_000,
]);

/** The receiver's time to answer (spec 6.3). */
export const WEBHOOK_TIMEOUT_MS = 10_000;

/** Response bodies are kept up to this many bytes per attempt. */
export const WEBHOOK_EXCERPT_BYTES = 16 * 1024;

/** When attempt `attempt + 1` is due after attempt `attempt` (1-based) failed at `failedAt`; undefined when none is left. */
export function nextAttemptAt(attempt: number, failedAt: Date): Date | undefined {
  const delay = WEBHOOK_RETRY_DELAYS_MS[attempt];
  return delay === undefined ? undefined : new Date(failedAt.getTime() + delay);
}
