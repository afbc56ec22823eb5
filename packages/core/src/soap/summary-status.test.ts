import { describe, expect, it } from "vitest";
import {
  nextSummaryStatus,
  SUMMARY_STATUSES,
  SUMMARY_TRANSITIONS,
  summaryFailureReason,
  type SummaryEvent,
  type SummaryStatus,
} from "./summary-status.js";

const EVENTS: SummaryEvent[] = ["QUEUE", "RENDERED", "FAIL", "RERENDER"];
const FROM: (SummaryStatus | null)[] = [null, ...SUMMARY_STATUSES];

/** Every (status, event) pair and where it leads; "-" where the table has no row (refused, or a stale job ignored). */
const EXPECTED: Record<string, Record<SummaryEvent, SummaryStatus | "-">> = {
  null: { QUEUE: "PENDING", RENDERED: "-", FAIL: "-", RERENDER: "-" },
  PENDING: { QUEUE: "-", RENDERED: "READY", FAIL: "FAILED", RERENDER: "-" },
  READY: { QUEUE: "-", RENDERED: "READY", FAIL: "-", RERENDER: "PENDING" },
  FAILED: { QUEUE: "-", RENDERED: "-", FAIL: "-", RERENDER: "PENDING" },
};

describe("the summary state table", () => {
  const pairs = FROM.flatMap((from) =>
    EVENTS.map((event) => [String(from), event, EXPECTED[String(from)]![event]] as const),
  );
  it.each(pairs)("%s --%s--> %s", (from, event, to) => {
    expect(nextSummaryStatus(from === "null" ? null : (from as SummaryStatus), event) ?? "-").toBe(to);
  });

  it("has one row per pair, so every lookup is unambiguous", () => {
    const keys = SUMMARY_TRANSITIONS.map((t) => `${t.from}:${t.event}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe("summaryFailureReason", () => {
  it("names the error and bounds the text", () => {
    expect(summaryFailureReason(new RangeError("Maximum call stack size exceeded"))).toBe(
      "RangeError: Maximum call stack size exceeded",
    );
    expect(summaryFailureReason(new Error("x".repeat(2000)))).toHaveLength(500);
    expect(summaryFailureReason("plain")).toBe("plain");
  });
});
