import { DateTime } from "luxon";
import type { ValidationIssue } from "../kernel/domain-error.js";
import { isTimeZone } from "../organisations/clinic-rules.js";
import { cachedRule, ruleOptions, ruleTextIssues } from "./recurrence.js";
import { RRule, type RRuleInstance } from "./rrule-interop.js";
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
  const key = `shift|${shift.weekdays.join(",")}|${start.getTime()}|${shift.effectiveUntil}|${shift.rrule}`;
  return cachedRule(key, () => buildRule(shift, start));
}

function buildRule(shift: Shift, from: Date): RRuleInstance {
  const until = shift.effectiveUntil
    ? DateTime.fromISO(shift.effectiveUntil, { zone: "UTC" }).endOf("day").toJSDate()
    : null;
  if (shift.rrule) {
    const options = ruleOptions(shift.rrule, from);
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
    issues.push(
      ...ruleTextIssues(shift.rrule, {
        startName: "the effective start",
        timesSetElsewhere: true,
        boundedElsewhere: shift.effectiveUntil !== null,
        boundHint: "UNTIL or COUNT, or an effective end date",
      }),
    );
  }
  return issues;
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
