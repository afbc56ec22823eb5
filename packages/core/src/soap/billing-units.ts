import type { BillingUnitRule } from "../organisations/billing-unit-rule.js";

/** Units that `minutes` support when 8 minutes make the first unit and every further 15 one more (0-7: none). */
export function midpointUnits(minutes: number): number {
  return Math.floor((Math.max(0, minutes) + 7) / 15);
}

/**
 * The units each line supports under `rule` (same order as `lines`). For
 * `none`, the units billed are supported as they are.
 */
export function supportedUnits(
  rule: BillingUnitRule,
  lines: readonly { timed: boolean; duration: number; units: number }[],
): number[] {
  if (rule === "none") return lines.map((l) => l.units);
  if (rule === "per_code_midpoint") return lines.map((l) => (l.timed ? midpointUnits(l.duration) : 1));
  // cms_8_minute: the visit's timed minutes decide the total; full 15-minute blocks go to their codes first.
  const out = lines.map((l) => (l.timed ? Math.floor(l.duration / 15) : 1));
  const timed = lines.map((l, i) => ({ i, l })).filter((x) => x.l.timed);
  const totalMinutes = timed.reduce((sum, x) => sum + x.l.duration, 0);
  let left = midpointUnits(totalMinutes) - timed.reduce((sum, x) => sum + out[x.i]!, 0);
  // Then one unit each to the largest remainders (ties: the longer line, then the earlier one).
  // At most one per line: the remainders are under 15 minutes each, so `left` never exceeds their count.
  const byRemainder = timed
    .filter((x) => x.l.duration % 15 > 0)
    .sort((a, b) => (b.l.duration % 15) - (a.l.duration % 15) || b.l.duration - a.l.duration || a.i - b.i);
  for (const x of byRemainder) {
    if (left <= 0) break;
    out[x.i]! += 1;
    left -= 1;
  }
  return out;
}
