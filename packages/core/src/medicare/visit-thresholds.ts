import { bucketOfModifiers, crossingIndex, type TherapyBucket, thresholdsOf } from "./therapy-thresholds.js";
import { THERAPY_BUCKETS } from "./therapy-charge.js";

/** A billed line as the threshold rules read it. */
export interface VisitLineInput {
  code: string;
  units: number;
  /** The line's modifier codes (GP, GO, GN decide the bucket). */
  modifiers: readonly string[];
}

/** A warning the sheet and the signature show; stable codes (docs/medicare-therapy.md). */
export interface MedicareWarning {
  code:
    | "KX_THRESHOLD_EXCEEDED"
    | "REVIEW_THRESHOLD_EXCEEDED"
    | "MEDICAL_NECESSITY_MISSING"
    | "FEE_MISSING"
    | "DISCIPLINE_MODIFIER_MISSING"
    | "THRESHOLDS_UNKNOWN_FOR_YEAR";
  message: string;
  bucket?: TherapyBucket | undefined;
  /** The treatment line's index (treatments.<i>). */
  line?: number | undefined;
}

export interface VisitBucketTotals {
  /** Incurred in the year before this visit (on or before its date). */
  priorCents: number;
  /** This visit's lines of the bucket. */
  visitCents: number;
  /** prior + visit past the KX threshold. */
  kxExceeded: boolean;
  /** prior + visit past the targeted review threshold. */
  reviewExceeded: boolean;
}

export interface VisitLineCheck {
  index: number;
  code: string;
  /** null: no discipline modifier (GP, GO, GN); not a counted therapy line. */
  bucket: TherapyBucket | null;
  /** units × the year's allowed amount; null when the fee schedule has none for the code. */
  allowedCents: number | null;
  /** KX belongs on the line: it is the one that takes the year over the threshold, or comes after it. */
  kxProposed: boolean;
  /** Whether the line carries KX already. */
  hasKx: boolean;
}

/** What the thresholds say of one visit of a Medicare Part B beneficiary. */
export interface VisitThresholdCheck {
  year: number;
  /** The year's thresholds; null when the table does not know the year (no KX is proposed then). */
  thresholds: { kxCents: number; reviewCents: number } | null;
  buckets: Record<TherapyBucket, VisitBucketTotals>;
  lines: VisitLineCheck[];
  warnings: MedicareWarning[];
}

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;
const BUCKET_NAMES: Record<TherapyBucket, string> = { PT_SLP: "PT and SLP", OT: "OT" };

/**
 * The threshold rules over one visit (CMS Pub. 100-02, chapter 15, section 220.3; docs/medicare-therapy.md): each
 * line's allowed amount counts in its discipline's bucket; KX is proposed on the line whose amount takes the
 * bucket's year over the KX threshold and on every line of the bucket after it; past the review threshold a
 * warning. `prior`: the bucket's incurred cents before the visit; `feeCents`: the year's allowed amount per unit by
 * code. Pure: the caller reads the amounts.
 */
export function checkVisitThresholds(
  year: number,
  prior: Readonly<Record<TherapyBucket, number>>,
  lines: readonly VisitLineInput[],
  feeCents: ReadonlyMap<string, number>,
): VisitThresholdCheck {
  const thresholds = thresholdsOf(year) ?? null;
  const warnings: MedicareWarning[] = [];
  const checked: VisitLineCheck[] = lines.map((l, index) => {
    const fee = feeCents.get(l.code);
    const bucket = l.units > 0 ? (bucketOfModifiers(l.modifiers) ?? null) : null;
    if (l.units > 0 && bucket === null)
      warnings.push({
        code: "DISCIPLINE_MODIFIER_MISSING",
        line: index,
        message: `${l.code} has no discipline modifier (GP, GO or GN): it is not counted towards a threshold`,
      });
    else if (bucket !== null && fee === undefined)
      warnings.push({
        code: "FEE_MISSING",
        line: index,
        bucket,
        message: `the ${year} fee schedule has no allowed amount for ${l.code}: it counts as $0.00`,
      });
    return {
      index,
      code: l.code,
      bucket,
      allowedCents: fee === undefined ? null : fee * l.units,
      kxProposed: false,
      hasKx: l.modifiers.includes("KX"),
    };
  });
  const buckets = {} as Record<TherapyBucket, VisitBucketTotals>;
  for (const bucket of THERAPY_BUCKETS) {
    const own = checked.filter((l) => l.bucket === bucket);
    const visitCents = own.reduce((sum, l) => sum + (l.allowedCents ?? 0), 0);
    const total = prior[bucket] + visitCents;
    buckets[bucket] = {
      priorCents: prior[bucket],
      visitCents,
      kxExceeded: thresholds !== null && total > thresholds.kxCents,
      reviewExceeded: thresholds !== null && total > thresholds.reviewCents,
    };
    if (!thresholds || !own.length) continue;
    const from = crossingIndex(
      prior[bucket],
      own.map((l) => l.allowedCents ?? 0),
      thresholds.kxCents,
    );
    if (from !== undefined) {
      for (const l of own.slice(from)) l.kxProposed = true;
      warnings.push({
        code: "KX_THRESHOLD_EXCEEDED",
        bucket,
        message: `${BUCKET_NAMES[bucket]} reach ${dollars(total)} this year, past the ${year} KX threshold of ${dollars(thresholds.kxCents)}: KX belongs on ${own
          .slice(from)
          .map((l) => l.code)
          .join(", ")}, with medical necessity documented`,
      });
    }
    if (buckets[bucket].reviewExceeded)
      warnings.push({
        code: "REVIEW_THRESHOLD_EXCEEDED",
        bucket,
        message: `${BUCKET_NAMES[bucket]} reach ${dollars(total)} this year, past the ${dollars(thresholds.reviewCents)} targeted medical review threshold: the claims may be reviewed`,
      });
  }
  if (!thresholds && checked.some((l) => l.bucket !== null))
    warnings.push({
      code: "THRESHOLDS_UNKNOWN_FOR_YEAR",
      message: `the therapy thresholds of ${year} are not known to this version: no KX is proposed`,
    });
  return { year, thresholds, buckets, lines: checked, warnings };
}
