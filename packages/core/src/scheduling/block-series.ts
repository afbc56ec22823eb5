import { type BlockException, lastEnd, type ProviderBlock, ruleOccurrences } from "./provider-block.js";
import type { Interval } from "./shift.js";
import { ruleOptions } from "./recurrence.js";
import { RRule } from "./rrule-interop.js";
import { dayStart, isoInZone } from "./zone-cache.js";

export type { BlockException } from "./provider-block.js";

// Edits of a recurring block's occurrences (issue 49, v1's modify-block and series edits), as pure functions of the
// block and its exceptions (BlockException, provider-block.ts).

/** One occurrence as lists show it: its original date, its times and reason, and whether an exception made it. */
export interface SeriesOccurrence {
  occurrenceDate: string;
  start: Date;
  end: Date;
  reason: string;
  modified: boolean;
}

type SeriesBlock = Pick<ProviderBlock, "startsAt" | "endsAt" | "timeZone" | "rrule" | "reason">;

const localDate = (at: Date, zone: string) => isoInZone(at, zone).slice(0, 10);

/**
 * The series' occurrences overlapping [from, to): the rule's, less the cancelled ones, with the modified ones at
 * their own times (a modified occurrence moved into the window from a date outside it is listed too).
 */
export function seriesOccurrences(
  block: SeriesBlock,
  exceptions: readonly BlockException[],
  from: Date,
  to: Date,
): SeriesOccurrence[] {
  const zone = block.timeZone ?? "UTC";
  const byDate = new Map(exceptions.map((e) => [e.occurrenceDate, e]));
  const out: SeriesOccurrence[] = [];
  for (const o of ruleOccurrences(block, from, to)) {
    const occurrenceDate = localDate(o.start, zone);
    if (byDate.has(occurrenceDate)) continue;
    out.push({ occurrenceDate, start: o.start, end: o.end, reason: block.reason, modified: false });
  }
  for (const e of exceptions) {
    if (e.kind !== "modified") continue;
    const original = occurrenceOn(block, e.occurrenceDate);
    if (!original) continue;
    const start = e.startsAt ?? original.start;
    const end = e.endsAt ?? original.end;
    if (start < to && end > from)
      out.push({ occurrenceDate: e.occurrenceDate, start, end, reason: e.reason ?? block.reason, modified: true });
  }
  return out.sort((a, b) => a.start.getTime() - b.start.getTime() || a.occurrenceDate.localeCompare(b.occurrenceDate));
}

/** The rule's occurrence on a local date, or undefined when the series has none that day. */
export function occurrenceOn(block: SeriesBlock, date: string): { start: Date; end: Date } | undefined {
  const zone = block.timeZone ?? "UTC";
  const found = ruleOccurrences(block, dayStart(zone, date), dayStart(zone, date, 1)).find(
    (o) => localDate(o.start, zone) === date,
  );
  return found && { start: found.start, end: found.end };
}

/** The text of a rule's options as an RRULE line (no DTSTART: the block's start sets it). */
function ruleText(options: ReturnType<typeof ruleOptions>): string {
  const { dtstart: _, ...rest } = options;
  return RRule.optionsToString(rest).replace(/^RRULE:/, "");
}

/**
 * A `this_and_following` edit splits the series at an occurrence, as calendar clients do: the head keeps the
 * occurrences before it (its rule bounded by COUNT), the tail starts at it with the rest (COUNT reduced, or the
 * same UNTIL). Undefined when the date is not an occurrence; `head: null` when it is the first one (then the edit
 * is the whole series).
 */
export function splitSeries(
  block: SeriesBlock,
  date: string,
): { head: { rrule: string } | null; tail: { startsAt: Date; endsAt: Date; rrule: string } } | undefined {
  if (!block.rrule || !block.timeZone) return undefined;
  const at = occurrenceOn(block, date);
  if (!at) return undefined;
  const all = ruleOccurrences(block, block.startsAt, lastEnd(block));
  const index = all.findIndex((o) => o.start.getTime() === at.start.getTime());
  const options = ruleOptions(block.rrule);
  const tailOptions = options.count ? { ...options, count: options.count - index } : options;
  return {
    head: index === 0 ? null : { rrule: ruleText({ ...options, until: null, count: index }) },
    tail: { startsAt: at.start, endsAt: at.end, rrule: ruleText(tailOptions) },
  };
}

/**
 * The time a block holds within [from, to): its rule's occurrences with its exceptions applied (cancelled ones gone,
 * modified ones at their own times). What slots, placement and a block's conflicts read.
 */
export function blockOccurrences(
  block: Pick<ProviderBlock, "startsAt" | "endsAt" | "timeZone" | "rrule" | "reason" | "exceptions">,
  from: Date,
  to: Date,
): Interval[] {
  if (!block.exceptions?.length) return ruleOccurrences(block, from, to);
  return seriesOccurrences(block, block.exceptions, from, to).map((o) => ({ start: o.start, end: o.end }));
}
