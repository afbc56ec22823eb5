import { DateTime } from "luxon";
import type { ValidationIssue } from "../kernel/domain-error.js";
import { isTimeZone } from "../organisations/clinic-rules.js";
import { cachedRule, RRULE_MAX_LENGTH, ruleOptions, ruleTextIssues } from "./recurrence.js";
import { RRule, type RRuleInstance } from "./rrule-interop.js";
import type { Interval } from "./shift.js";
import { offsetAt, zonedInstant } from "./zone-cache.js";

/**
 * Time a provider is not bookable (a meeting, a vacation, lunch): from `startsAt` to `endsAt`, once, or again on
 * the days an RRULE names, at the same wall-clock times in `timeZone` (so a 12:00-13:00 lunch stays at noon
 * across daylight saving). A removed block keeps its row (`removedAt`).
 */
export interface ProviderBlock {
  id: number;
  organisationId: number;
  providerId: number;
  startsAt: Date;
  endsAt: Date;
  reason: string;
  /** The zone the recurrence keeps wall-clock times in; null for a one-off block. */
  timeZone: string | null;
  rrule: string | null;
  /** The end of the last occurrence (endsAt for a one-off block): what lists and slots filter on. */
  lastEndsAt: Date;
  createdAt: Date;
  removedAt: Date | null;
  /** A recurring block's changed occurrences (block-series.ts); empty: every occurrence as the rule has it. */
  exceptions: BlockException[];
  /** The first block of a series split by a this_and_following edit; null: this block is its own series. */
  seriesId: number | null;
  /** Compare-and-set counter of edits: +1 on every update. */
  version: number;
}

/**
 * One changed occurrence of a recurring block, RFC 5545's RECURRENCE-ID: named by its original local date in the
 * block's zone (a block recurs at most daily), moved or re-reasoned (`modified`) or `cancelled`. A modified one
 * holds only what it changed (null: the series'), so an edit of the whole series reaches every field an exception
 * did not change and none that it did.
 */
export interface BlockException {
  /** The occurrence's original local date, YYYY-MM-DD. */
  occurrenceDate: string;
  kind: "modified" | "cancelled";
  startsAt: Date | null;
  endsAt: Date | null;
  reason: string | null;
}

export interface BlockDraft {
  startsAt: Date;
  endsAt: Date;
  reason: string;
  timeZone?: string | null | undefined;
  rrule?: string | null | undefined;
}

export const BLOCK_LIMITS = {
  reasonMax: 200,
  maxOneOffDays: 366,
  maxOccurrences: 1000,
  maxRruleLength: RRULE_MAX_LENGTH,
  maxListDays: 366,
  /** Changed occurrences one series may hold (kept in one column: bounded well under MariaDB's 64 KiB TEXT). */
  maxExceptions: 100,
} as const;

/**
 * How much earlier than a block's own start one of its occurrences may begin: an exception stays on its
 * occurrence's local date, so the first occurrence moved to that day's midnight (a day, and an hour of daylight
 * saving). Lookups by time widen their window by this much and let blockOccurrences filter.
 */
export const EXCEPTION_REACH_MS = 25 * 3_600_000;

/** An instant's wall-clock time in the zone, as milliseconds of a UTC date with those fields ("floating"). */
const wallClock = (zone: string, at: Date) => at.getTime() + offsetAt(zone, at) * 60_000;

const floating = (d: DateTime) =>
  new Date(Date.UTC(d.year, d.month - 1, d.day, d.hour, d.minute, d.second, d.millisecond));
const fromFloating = (f: Date, zone: string) =>
  zonedInstant(zone, {
    year: f.getUTCFullYear(),
    month: f.getUTCMonth() + 1,
    day: f.getUTCDate(),
    hour: f.getUTCHours(),
    minute: f.getUTCMinutes(),
    second: f.getUTCSeconds(),
  });

/** The recurrence with its DTSTART at the block's wall-clock start (floating, as rrule advises). */
/** The recurrence with its DTSTART at the block's wall-clock start (floating, as rrule advises). */
function ruleOf(block: Pick<ProviderBlock, "startsAt" | "timeZone" | "rrule">): RRuleInstance {
  return cachedRule(`block|${block.startsAt.getTime()}|${block.timeZone}|${block.rrule}`, () => {
    const start = floating(DateTime.fromJSDate(block.startsAt, { zone: block.timeZone as string }));
    return new RRule(ruleOptions(block.rrule as string, start));
  });
}

/**
 * Every occurrence's [start, end) the rule gives that overlaps [from, to), exceptions aside (block-series.ts's
 * blockOccurrences applies them: what slots, placement and conflicts read).
 */
export function ruleOccurrences(
  block: Pick<ProviderBlock, "startsAt" | "endsAt" | "timeZone" | "rrule">,
  from: Date,
  to: Date,
): Interval[] {
  if (!block.rrule || !block.timeZone)
    return block.startsAt < to && block.endsAt > from ? [{ start: block.startsAt, end: block.endsAt }] : [];
  const zone = block.timeZone;
  // The wall-clock length (a 12:00-13:00 lunch is an hour of the clock, whatever the day's offset).
  const wallLength = wallClock(zone, block.endsAt) - wallClock(zone, block.startsAt);
  const fromFloat = wallClock(zone, from) - wallLength - 86_400_000;
  const toFloat = wallClock(zone, to) + 86_400_000;
  const out: Interval[] = [];
  for (const f of ruleOf(block).between(new Date(fromFloat), new Date(toFloat), true)) {
    const s = fromFloating(f, zone);
    const e = fromFloating(new Date(f.getTime() + wallLength), zone);
    if (s < to && e > from) out.push({ start: s, end: e });
  }
  return out;
}

/** The end of the block's last occurrence; for a bounded RRULE, read from the rule itself. */
export function lastEnd(block: Pick<ProviderBlock, "startsAt" | "endsAt" | "timeZone" | "rrule">): Date {
  if (!block.rrule || !block.timeZone) return block.endsAt;
  const all = ruleOf(block).all((_, i) => i < BLOCK_LIMITS.maxOccurrences);
  const last = all.at(-1);
  if (!last) return block.endsAt;
  const zone = block.timeZone;
  const wallLength = wallClock(zone, block.endsAt) - wallClock(zone, block.startsAt);
  return fromFloating(new Date(last.getTime() + wallLength), zone);
}

/** Problems with a block as given, each naming its field (domain names); empty when usable. */
export function blockIssues(draft: BlockDraft): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const reason = draft.reason.trim();
  if (reason.length === 0 || reason.length > BLOCK_LIMITS.reasonMax)
    issues.push({ field: "reason", reason: `must be 1 to ${BLOCK_LIMITS.reasonMax} characters` });
  if (!(draft.endsAt > draft.startsAt))
    issues.push({ field: "endsAt", reason: "must be after the start", value: draft.endsAt });
  const rrule = draft.rrule?.trim() || null;
  const zone = draft.timeZone ?? null;
  if (rrule === null) {
    if (draft.endsAt.getTime() - draft.startsAt.getTime() > BLOCK_LIMITS.maxOneOffDays * 86_400_000)
      issues.push({ field: "endsAt", reason: `must be at most ${BLOCK_LIMITS.maxOneOffDays} days after the start` });
    return issues;
  }
  if (zone === null || !isTimeZone(zone))
    issues.push({ field: "timeZone", reason: "is required with an RRULE: an IANA time zone", value: zone });
  if (draft.endsAt.getTime() - draft.startsAt.getTime() > 86_400_000)
    issues.push({ field: "endsAt", reason: "must be at most 24 hours after the start when the block recurs" });
  const ruleProblems = ruleTextIssues(rrule, {
    startName: "the start",
    // The start and end set the times: one occurrence a day at most, which exceptions name by their local date.
    timesSetElsewhere: true,
    boundedElsewhere: false,
    boundHint: "UNTIL or COUNT",
  });
  if (ruleProblems.length > 0) return [...issues, ...ruleProblems];
  if (
    issues.length === 0 &&
    ruleOf({ startsAt: draft.startsAt, timeZone: zone, rrule }).all((_, i) => i <= BLOCK_LIMITS.maxOccurrences).length >
      BLOCK_LIMITS.maxOccurrences
  )
    issues.push({
      field: "rrule",
      reason: `must not recur more than ${BLOCK_LIMITS.maxOccurrences} times`,
      value: rrule,
    });
  return issues;
}
