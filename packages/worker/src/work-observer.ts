/**
 * What background work tells a monitoring system as it happens (the runtime's /metrics counts it). Every method is
 * optional and must not throw; a throwing observer is ignored.
 */
export interface WorkObserver {
  /** A job ran: `completed`, `retried` (rescheduled after an error) or `failed` (for good). */
  jobFinished?(queue: string, outcome: "completed" | "retried" | "failed", seconds: number): void;
  /** A webhook attempt was recorded: `delivered` (2xx), `failed` (anything else), or `not_sent` (subscription gone). */
  webhookAttempt?(outcome: "delivered" | "failed" | "not_sent", statusCode: number | null): void;
  /** A push to one device was tried: the push service's answer as the core reads it (delivered, retry, gone, …). */
  pushAttempt?(outcome: string): void;
}

/** Calls an observer method, ignoring what it throws (monitoring never breaks the work). */
export function tell(observe: () => void): void {
  try {
    observe();
  } catch {
    // Deliberately ignored.
  }
}
