/**
 * A completed note's PDF summary: PENDING once queued (completion or a
 * re-render), READY once rendered, FAILED when it cannot be rendered (the
 * renderer refused the note's content, or every attempt failed); the reason is
 * stored with it. A note that is not completed has none (null).
 */
export const SUMMARY_STATUSES = ["PENDING", "READY", "FAILED"] as const;
export type SummaryStatus = (typeof SUMMARY_STATUSES)[number];

/**
 * What moves a summary: QUEUE (the note is completed), RENDERED (the job
 * stored both PDFs), FAIL (the job gave up), RERENDER (a caller asks again).
 */
export type SummaryEvent = "QUEUE" | "RENDERED" | "FAIL" | "RERENDER";

export interface SummaryTransition {
  from: SummaryStatus | null;
  event: SummaryEvent;
  to: SummaryStatus;
}

/** Every allowed move; anything else is refused (a caller) or ignored (a stale job). */
export const SUMMARY_TRANSITIONS: readonly SummaryTransition[] = Object.freeze([
  { from: null, event: "QUEUE", to: "PENDING" },
  { from: "PENDING", event: "RENDERED", to: "READY" },
  // A job that runs twice (a lease lost mid-render) renders the same PDFs again.
  { from: "READY", event: "RENDERED", to: "READY" },
  { from: "PENDING", event: "FAIL", to: "FAILED" },
  { from: "FAILED", event: "RERENDER", to: "PENDING" },
  { from: "READY", event: "RERENDER", to: "PENDING" },
] as const satisfies readonly SummaryTransition[]);

/** The status `event` moves `from` to, or undefined when the table has no such row. */
export function nextSummaryStatus(from: SummaryStatus | null, event: SummaryEvent): SummaryStatus | undefined {
  return SUMMARY_TRANSITIONS.find((t) => t.from === from && t.event === event)?.to;
}

/** The longest failure reason stored with a summary. */
export const SUMMARY_FAILURE_MAX_LENGTH = 500;

/** A thrown value as a stored reason: "RangeError: Maximum call stack size exceeded", bounded. */
export function summaryFailureReason(error: unknown): string {
  let text: string;
  try {
    text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  } catch {
    text = "an unreadable error";
  }
  return text.length > SUMMARY_FAILURE_MAX_LENGTH ? `${text.slice(0, SUMMARY_FAILURE_MAX_LENGTH - 1)}…` : text;
}
