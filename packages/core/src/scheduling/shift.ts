import { DateTime } from "luxon";
import type { ValidationIssue } from "../errors/domain-error.js";
import { isTimeZone } from "../organisations/clinic-rules.js";
import { RRule, type RRuleInstance, rrulestr } from "./rrule-interop.js";
import { floatingDate, zonedInstant } from "./zone-cache.js";

/** Days as RFC 5545 names them (BYDAY). */
export const WEEKDAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/**
 * A provider's recurring shift at a clinic, in the clinic's wall-clock time: on the days its rule names, from
 * `start` to `end` (HH:MM, the same day), between `effectiveFrom` and `effectiveUntil` (dates, inclusive).
 * The rule is weekly on `weekdays` unless `rrule` (an RFC 5545 RRULE, e.g. every other week) says otherwise.
 */
export interface Shift {
  timeZone: string;
  weekdays: readonly Weekday[];
  start: string;
  end: string;
  effectiveFrom: string;
  effectiveUntil: string | null;
  rrule: string | null;
}

/** An interval of instants, end exclusive. */
export interface Interval {
  start: Date;
  end: Date;
}

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const minutesOf = (time: string) => {
  const m = TIME.exec(time);
  return m ? Number(m[1]) * 60 + Number(m[2]) : Number.NaN;
};
const isDate = (text: string) => DATE.test(text) && DateTime.fromISO(text, { zone: "UTC" }).isValid;

/**
 * The rule that lists the shift's days: its own RRULE (with DTSTART at the first effective day), or weekly on its
 * weekdays. Dates in and out are "floating": UTC instants whose calendar fields are the local date, as rrule
 * advises, so no time zone arithmetic happens inside rrule.
 */
function ruleOf(shift: Shift, near?: Date): RRuleInstance {
  // A plain weekly rule lists the same days whatever its first day, so it starts near the range asked about
  // instead of iterating from the effective start (months back, on every cold call).
  const from = DateTime.fromISO(shift.effectiveFrom, { zone: "UTC" }).toJSDate();
  const start = !shift.rrule && near && near > from ? near : from;
  // Building a rule (its year masks) costs far more than reading it: one instance per distinct rule is kept.
  const key = `${shift.weekdays.join(",")}|${start.getTime()}|${shift.effectiveUntil}|${shift.rrule}`;
  const known = rules.get(key);
  if (known) return known;
  if (rules.size >= 10_000) rules.clear();
  const rule = buildRule(shift, start);
  rules.set(key, rule);
  return rule;
}

const rules = new Map<string, RRuleInstance>();

function buildRule(shift: Shift, from: Date): RRuleInstance {
  const until = shift.effectiveUntil
    ? DateTime.fromISO(shift.effectiveUntil, { zone: "UTC" }).endOf("day").toJSDate()
    : null;
  if (shift.rrule) {
    const parsed = rrulestr(shift.rrule.replace(/^RRULE:/i, ""), { dtstart: from }) as RRuleInstance;
    const options = { ...parsed.origOptions, dtstart: from };
    // The effective end bounds the rule too: the earlier of the two ends wins.
    if (until && (!options.until || options.until > until)) options.until = until;
    return new RRule(options);
  }
  return new RRule({
    freq: RRule.WEEKLY,
    byweekday: shift.weekdays.map((d) => WEEKDAYS.indexOf(d)),
    dtstart: from,
    until,
  });
}

/** Problems with a shift as given, each naming its field; empty when it is usable. */
export function shiftIssues(shift: Shift): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (!isTimeZone(shift.timeZone))
    issues.push({ field: "timeZone", reason: "must be an IANA time zone", value: shift.timeZone });
  const start = minutesOf(shift.start);
  const end = minutesOf(shift.end);
  if (Number.isNaN(start)) issues.push({ field: "startTime", reason: "must be HH:MM (24-hour)", value: shift.start });
  if (Number.isNaN(end)) issues.push({ field: "endTime", reason: "must be HH:MM (24-hour)", value: shift.end });
  // A shift lives within one day, so it is never longer than 24 hours; one past midnight is two shifts.
  if (!Number.isNaN(start) && !Number.isNaN(end) && end <= start)
    issues.push({ field: "endTime", reason: "must be after the start time on the same day", value: shift.end });
  if (!isDate(shift.effectiveFrom))
    issues.push({ field: "effectiveFrom", reason: "must be a date (YYYY-MM-DD)", value: shift.effectiveFrom });
  if (shift.effectiveUntil !== null && !isDate(shift.effectiveUntil))
    issues.push({ field: "effectiveUntil", reason: "must be a date (YYYY-MM-DD)", value: shift.effectiveUntil });
  else if (shift.effectiveUntil !== null && isDate(shift.effectiveFrom) && shift.effectiveUntil < shift.effectiveFrom)
    issues.push({
      field: "effectiveUntil",
      reason: "must not be before the effective start",
      value: shift.effectiveUntil,
    });
  if (shift.rrule === null) {
    if (shift.weekdays.length === 0) issues.push({ field: "weekdays", reason: "must name at least one day" });
    const unknown = shift.weekdays.filter((d) => !WEEKDAYS.includes(d));
    if (unknown.length > 0)
      issues.push({ field: "weekdays", reason: `must be among ${WEEKDAYS.join(", ")}`, value: unknown });
  } else {
    if (shift.weekdays.length > 0)
      issues.push({ field: "weekdays", reason: "must be left out with an RRULE (its BYDAY names the days)" });
    issues.push(...ruleIssues(shift));
  }
  return issues;
}

function ruleIssues(shift: Shift): ValidationIssue[] {
  const text = shift.rrule as string;
  let options: RRuleInstance["origOptions"];
  try {
    options = (rrulestr(text.replace(/^RRULE:/i, "")) as RRuleInstance).origOptions;
  } catch (error) {
    return [{ field: "rrule", reason: `is not an RFC 5545 RRULE (${(error as Error).message})`, value: text }];
  }
  if (/DTSTART|\n/i.test(text))
    return [
      { field: "rrule", reason: "must be one RRULE line without DTSTART: the effective start sets it", value: text },
    ];
  if (options.freq === undefined || ![RRule.DAILY, RRule.WEEKLY, RRule.MONTHLY].includes(options.freq))
    return [{ field: "rrule", reason: "FREQ must be DAILY, WEEKLY or MONTHLY", value: text }];
  if (options.byhour !== undefined || options.byminute !== undefined || options.bysecond !== undefined)
    return [
      { field: "rrule", reason: "must not set BYHOUR, BYMINUTE or BYSECOND: the start and end times do", value: text },
    ];
  if (options.until === undefined && options.count === undefined && shift.effectiveUntil === null)
    return [{ field: "rrule", reason: "is unbounded: give UNTIL or COUNT, or an effective end date", value: text }];
  return [];
}

/**
 * The shift's occurrences that overlap [from, to), as instants. Each day's start and end are read as wall-clock
 * times in the shift's zone on that day, so a 09:00-17:00 shift starts at 09:00 local on the days daylight saving
 * begins or ends (luxon resolves the offset of each day; a time the clock skips moves forward by the gap).
 */
export function occurrences(shift: Shift, from: Date, to: Date): Interval[] {
  const zone = shift.timeZone;
  // The local calendar days that can hold an occurrence in range (a day either side, to be safe at the edges).
  const firstDay = new Date(floatingDate(zone, from).getTime() - 86_400_000);
  const lastDay = new Date(floatingDate(zone, to).getTime() + 86_400_000);
  const days = ruleOf(shift, firstDay).between(firstDay, lastDay, true);
  const [startHour, startMinute] = shift.start.split(":").map(Number) as [number, number];
  const [endHour, endMinute] = shift.end.split(":").map(Number) as [number, number];
  const out: Interval[] = [];
  for (const day of days) {
    const date = { year: day.getUTCFullYear(), month: day.getUTCMonth() + 1, day: day.getUTCDate() };
    const start = zonedInstant(zone, { ...date, hour: startHour, minute: startMinute });
    const end = zonedInstant(zone, { ...date, hour: endHour, minute: endMinute });
    if (start < to && end > from) out.push({ start, end });
  }
  return out;
}

/**
 * The first moment two shifts (of one provider, at two clinics) overlap, or null. Both are expanded over the span
 * they share, bounded by `horizonDays` from its start when either runs on without an end.
 */
export function firstOverlap(a: Shift, b: Shift, horizonDays = 366 * 2): Interval | null {
  const from = [a.effectiveFrom, b.effectiveFrom].sort()[1] as string;
  const ends = [a.effectiveUntil, b.effectiveUntil].filter((d): d is string => d !== null).sort();
  const horizon = DateTime.fromISO(from, { zone: "UTC" }).plus({ days: horizonDays }).toISODate() as string;
  const until = ([...ends, horizon].sort()[0] as string) ?? horizon;
  if (until < from) return null;
  // Instants a day wider than the dates: the zones may differ.
  const start = DateTime.fromISO(from, { zone: "UTC" }).minus({ days: 1 }).toJSDate();
  const end = DateTime.fromISO(until, { zone: "UTC" }).plus({ days: 2 }).toJSDate();
  const left = occurrences(a, start, end);
  const right = occurrences(b, start, end);
  let j = 0;
  for (const x of left) {
    while (j < right.length && (right[j] as Interval).end <= x.start) j++;
    for (let k = j; k < right.length && (right[k] as Interval).start < x.end; k++) {
      const y = right[k] as Interval;
      if (y.start < x.end && y.end > x.start)
        return {
          start: new Date(Math.max(x.start.getTime(), y.start.getTime())),
          end: new Date(Math.min(x.end.getTime(), y.end.getTime())),
        };
    }
  }
  return null;
}
