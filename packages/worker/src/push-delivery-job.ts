import type { Practice } from "@openpractice/core";
import { tell, type WorkObserver } from "./work-observer.js";
import pRetry from "p-retry";
import type { JobHandler } from "@openpractice/core";
import { PUSH_TIMEOUT_MS } from "./push-transport.js";

/** How a device's push is retried within one run of the delivery job. */
export interface PushRetryPolicy {
  /** Attempts after the first (OPENPRACTICE_PUSH_RETRIES). */
  retries: number;
  /** The first backoff delay, doubled on each retry (OPENPRACTICE_PUSH_RETRY_BASE_MS). */
  baseDelayMs: number;
}

/** The policy with its window: no retry starts after `windowMs`, so one job run (its lease renewed meanwhile) ends in bounded time. */
type WindowedPolicy = PushRetryPolicy & { windowMs: number };

export const DEFAULT_PUSH_RETRY = Object.freeze({ retries: 4, baseDelayMs: 1_000 });
const MAX_BACKOFF_MS = 15_000;

/** How long one delivery keeps retrying a device: two send timeouts, enough for the default four retries (1 + 2 + 4 + 8 s). */
export const PUSH_RETRY_WINDOW_MS = 2 * PUSH_TIMEOUT_MS;

/** An attempt the push service asked us to repeat (429, 5xx, no answer). */
class RetryablePush extends Error {
  constructor(
    readonly retryAfterSeconds: number | null,
    detail: string,
  ) {
    super(detail);
  }
}

/** Stops retrying early, with the reason to record. */
class GiveUp extends Error {}

/** The delay p-retry will wait before retry number `retriesConsumed + 1` (its documented formula, randomize off). */
const backoffMs = (policy: WindowedPolicy, retriesConsumed: number) =>
  Math.min(policy.baseDelayMs * 2 ** retriesConsumed, MAX_BACKOFF_MS);

/**
 * Sends one device's push, retrying with exponential backoff (p-retry) while
 * the push service says 429 or 5xx or does not answer. A Retry-After is
 * honoured: the next attempt waits at least that long, and if that would end
 * past the retry window we stop and record why. Sleeping lives here, in the
 * runtime, not in the core: the core only says what each answer means.
 */
async function pushWithRetries(
  practice: Practice,
  policy: WindowedPolicy,
  notificationId: string,
  deviceId: string,
  observer?: WorkObserver | undefined,
): Promise<void> {
  const deliveries = practice.notificationDeliveries;
  const started = performance.now();
  let lastFailure = "";
  try {
    await pRetry(
      async () => {
        const report = await deliveries.attempt(notificationId, deviceId);
        tell(() => observer?.pushAttempt?.(report.outcome));
        if (report.outcome === "retry") throw new RetryablePush(report.retryAfterSeconds, report.error ?? "no answer");
      },
      {
        retries: policy.retries,
        minTimeout: policy.baseDelayMs,
        factor: 2,
        maxTimeout: MAX_BACKOFF_MS,
        maxRetryTime: policy.windowMs,
        // Only the push service's "try again" is retried here; a database error fails the job, which the job runner retries whole.
        shouldRetry: ({ error }) => error instanceof RetryablePush,
        async onFailedAttempt({ error, retriesLeft, retriesConsumed, attemptNumber }) {
          if (!(error instanceof RetryablePush)) return;
          lastFailure = `gave up after ${attemptNumber} attempt${attemptNumber === 1 ? "" : "s"}: ${error.message}`;
          if (retriesLeft <= 0 || error.retryAfterSeconds === null) return;
          const wantMs = error.retryAfterSeconds * 1000;
          const leftMs = policy.windowMs - (performance.now() - started);
          if (wantMs > leftMs)
            throw new GiveUp(
              `the push service asked to retry after ${error.retryAfterSeconds} s, beyond this delivery's retry window; ${lastFailure}`,
            );
          // p-retry waits backoffMs next; wait the rest of what Retry-After asks first.
          const extraMs = wantMs - backoffMs(policy, retriesConsumed);
          if (extraMs > 0) await new Promise((resolve) => setTimeout(resolve, extraMs));
        },
      },
    );
  } catch (error) {
    if (!(error instanceof RetryablePush) && !(error instanceof GiveUp)) throw error;
    await deliveries.giveUp(notificationId, deviceId, error instanceof GiveUp ? error.message : lastFailure);
  }
}

/**
 * The `notifications.deliver` job: a push to every device of the recipient,
 * side by side, then the notification's status, committed together with the
 * job's completion (a finished notification is never sent again).
 */
export function pushDeliveryHandler(
  practice: Practice,
  retry: PushRetryPolicy,
  observer?: WorkObserver | undefined,
): JobHandler {
  const policy: WindowedPolicy = { ...retry, windowMs: PUSH_RETRY_WINDOW_MS };
  return async (job, context) => {
    const notificationId = String((job.payload as { notificationId: string }).notificationId);
    const deviceIds = await practice.notificationDeliveries.prepare(notificationId);
    // Every device's push ends before the job ends or fails: a job retried while a push is still going would send it twice.
    const settled = await Promise.allSettled(
      deviceIds.map((deviceId) => pushWithRetries(practice, policy, notificationId, deviceId, observer)),
    );
    const failure = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
    if (failure) throw failure.reason;
    await practice.notificationDeliveries.finish(notificationId, { alsoInTransaction: (tx) => context.complete(tx) });
    return "completed";
  };
}
