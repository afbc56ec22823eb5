import { DateTime } from "luxon";
import type { ValidationIssue } from "../errors/domain-error.js";
import { isTimeZone } from "../organisations/clinic-rules.js";
import { RRule, type RRuleInstance, rrulestr } from "./rrule-interop.js";
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
}

export interface BlockDraft {
  startsAt: Date;
  endsAt: Date;
  reason: string;
  timeZone?: string | null | undefined;
  rrule?: string | null | undefined;
}

export const BLOCK_LIMITS = { reasonMax: 200, maxOneOffDays: 366, maxOccurrences: 1000, maxRruleLength: 500 } as const;

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
const rules = new Map<string, RRuleInstance>();

function ruleOf(block: Pick<ProviderBlock, "startsAt" | "timeZone" | "rrule">): RRuleInstance {
  // As for shifts: building a rule costs far more than reading it, so one instance per distinct rule is kept.
  const key = `${block.startsAt.getTime()}|${block.timeZone}|${block.rrule}`;
  const known = rules.get(key);
  if (known) return known;
  if (rules.size >= 10_000) rules.clear();
  const rule = buildRule(block);
  rules.set(key, rule);
  return rule;
}

function buildRule(block: Pick<ProviderBlock, "startsAt" | "timeZone" | "rrule">): RRuleInstance {
  const start = DateTime.fromJSDate(block.startsAt, { zone: block.timeZone as string });
  const parsed = rrulestr((block.rrule as string).replace(/^RRULE:/i, ""), {
    dtstart: floating(start),
  }) as RRuleInstance;
  return new RRule({ ...parsed.origOptions, dtstart: floating(start) });
}

/** Every occurrence's [start, end) that overlaps [from, to). */
export function blockOccurrences(
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
  if (rrule.length > BLOCK_LIMITS.maxRruleLength)
    return [...issues, { field: "rrule", reason: `must be at most ${BLOCK_LIMITS.maxRruleLength} characters` }];
  let options: RRuleInstance["origOptions"];
  try {
    options = (rrulestr(rrule.replace(/^RRULE:/i, "")) as RRuleInstance).origOptions;
  } catch (error) {
    return [
      ...issues,
      { field: "rrule", reason: `is not an RFC 5545 RRULE (${(error as Error).message})`, value: rrule },
    ];
  }
  if (/DTSTART|\n/i.test(rrule))
    issues.push({ field: "rrule", reason: "must be one RRULE line without DTSTART: the start sets it", value: rrule });
  else if (options.freq === undefined || ![RRule.DAILY, RRule.WEEKLY, RRule.MONTHLY].includes(options.freq))
    issues.push({ field: "rrule", reason: "FREQ must be DAILY, WEEKLY or MONTHLY", value: rrule });
  else if (options.until === undefined && options.count === undefined)
    issues.push({ field: "rrule", reason: "is unbounded: give UNTIL or COUNT", value: rrule });
  else if (
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
