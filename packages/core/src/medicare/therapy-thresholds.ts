/**
 * Medicare Part B's outpatient therapy thresholds by calendar year (docs/medicare-therapy.md; branch work, not yet
 * served): the KX modifier threshold (Bipartisan Budget Act of 2018, section 50202; CMS Pub. 100-02, chapter 15,
 * section 220.3; amounts from each year's Physician Fee Schedule final rule) and the targeted medical review
 * threshold ($3,000 through 2028). Data, not code: a new year is one line. Cents.
 */
export const THERAPY_THRESHOLDS: Readonly<Record<number, { kxCents: number; reviewCents: number }>> = Object.freeze({
  2024: { kxCents: 233_000, reviewCents: 300_000 },
  2025: { kxCents: 241_000, reviewCents: 300_000 },
  2026: { kxCents: 248_000, reviewCents: 300_000 },
});

/** The two buckets each beneficiary's year is counted in: physical therapy with speech-language pathology, and occupational therapy. */
export type TherapyBucket = "PT_SLP" | "OT";

/** The thresholds of a year, or undefined for a year the table does not know (never a guess). */
export const thresholdsOf = (year: number) =>
  Object.hasOwn(THERAPY_THRESHOLDS, year) ? THERAPY_THRESHOLDS[year] : undefined;

/**
 * Where a visit's lines cross a threshold: the index of the first line from which the incurred amount exceeds it
 * (the line that crosses included, as CMS asks KX on the claim line that exceeds the amount and every one after),
 * or undefined when the visit stays at or under it. `priorCents`: the year's incurred amount before the visit.
 */
export function crossingIndex(
  priorCents: number,
  lineCents: readonly number[],
  thresholdCents: number,
): number | undefined {
  let incurred = priorCents;
  if (incurred > thresholdCents) return lineCents.length > 0 ? 0 : undefined;
  for (const [i, cents] of lineCents.entries()) {
    incurred += cents;
    if (incurred > thresholdCents) return i;
  }
  return undefined;
}
