import { type Interval, occurrences, type Shift } from "./shift.js";
import { dayStart, isoInZone } from "./zone-cache.js";

export interface SlotQuery {
  /** The provider's shifts at the clinic. */
  shifts: readonly Shift[];
  /** Times the provider is not bookable: blocks, and appointments that are not cancelled. */
  busy: readonly Interval[];
  /** The clinic's zone: days are its calendar days, and slots are written with its offset. */
  timeZone: string;
  /** The first day (YYYY-MM-DD, in the clinic's zone) and how many days. */
  startDate: string;
  days: number;
  /** Minutes an appointment lasts, and minutes between the starts of candidate slots (default: the length). */
  slotLength: number;
  slotInterval?: number;
  /** Slots starting before this are not offered (now, usually). */
  notBefore?: Date;
  /** The shift's occurrences over the days (default: expanded here); a search over many providers shares them. */
  occurrencesOf?: (shift: Shift, from: Date, to: Date) => Interval[];
}

/**
 * The starts of every slot of `slotLength` minutes that fits inside a shift occurrence and overlaps nothing busy,
 * candidates being the occurrence's start and every `slotInterval` after it. Sorted, without duplicates (two
 * shifts of one day may touch).
 */
export function bookableSlots(query: SlotQuery): Date[] {
  const lengthMs = query.slotLength * 60_000;
  const stepMs = (query.slotInterval ?? query.slotLength) * 60_000;
  const from = dayStart(query.timeZone, query.startDate);
  const to = dayStart(query.timeZone, query.startDate, query.days);
  const busy = mergeIntervals(query.busy);
  const starts = new Set<number>();
  const expand = query.occurrencesOf ?? occurrences;
  for (const shift of query.shifts)
    for (const occurrence of expand(shift, from, to)) {
      for (let t = occurrence.start.getTime(); t + lengthMs <= occurrence.end.getTime(); t += stepMs) {
        if (t < from.getTime() || t >= to.getTime()) continue;
        if (query.notBefore && t < query.notBefore.getTime()) continue;
        if (!overlapsAny(busy, t, t + lengthMs)) starts.add(t);
      }
    }
  return [...starts].sort((a, b) => a - b).map((t) => new Date(t));
}

/** Busy intervals merged where they overlap or touch: sorted and disjoint, so one look decides a candidate. */
export function mergeIntervals(intervals: readonly Interval[]): Interval[] {
  const sorted = [...intervals].sort((a, b) => a.start.getTime() - b.start.getTime());
  const out: Interval[] = [];
  for (const next of sorted) {
    const last = out.at(-1);
    if (last && next.start <= last.end) {
      if (next.end > last.end) last.end = next.end;
    } else out.push({ start: next.start, end: next.end });
  }
  return out;
}

/** Whether [start, end) meets a merged busy interval: the last one starting before `end` is the only candidate. */
function overlapsAny(busy: readonly Interval[], start: number, end: number): boolean {
  let lo = 0;
  let hi = busy.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((busy[mid] as Interval).start.getTime() < end) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 && (busy[lo - 1] as Interval).end.getTime() > start;
}

/** A slot start as ISO 8601 with the clinic's offset on that day (2026-03-08T09:00:00-04:00). */
export const slotText = (start: Date, timeZone: string) => isoInZone(start, timeZone);
