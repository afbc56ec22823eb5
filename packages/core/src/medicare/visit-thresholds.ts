import { crossingIndex, type TherapyBucket, thresholdsOf } from "./therapy-thresholds.js";
import { THERAPY_BUCKETS } from "./therapy-charge.js";
import {
  ASSISTANT_DE_MINIMIS_PERCENT,
  ASSISTANT_MODIFIERS,
  ASSISTANT_PAYMENT_PERCENT,
  type AssistantKind,
  bucketOfDiscipline,
  DISCIPLINE_MODIFIERS,
  disciplineOfModifiers,
  type TherapyDiscipline,
} from "./therapy-discipline.js";

/** A billed line as the Medicare rules read it. */
export interface VisitLineInput {
  code: string;
  units: number;
  /** The line's minutes. */
  duration: number;
  /** The line's modifier codes (GP, GO, GN decide the bucket). */
  modifiers: readonly string[];
  /** The minutes a therapy assistant furnished of the line (from the sheet's minutes by provider), if any. */
  assistant?: { kind: AssistantKind; minutes: number } | undefined;
}

/** A warning the sheet and the signature show; stable codes (docs/medicare-therapy.md). */
export interface MedicareWarning {
  code:
    | "KX_THRESHOLD_EXCEEDED"
    | "REVIEW_THRESHOLD_EXCEEDED"
    | "MEDICAL_NECESSITY_MISSING"
    | "FEE_MISSING"
    | "DISCIPLINE_MODIFIER_MISSING"
    | "ASSISTANT_MODIFIER_DUE"
    | "CERTIFICATION_DUE"
    | "CERTIFICATION_LAPSED"
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
  /** The line's discipline: its GP/GO/GN, else the plan of care's; null for a line not billed or without either. */
  discipline: TherapyDiscipline | null;
  /** null: no discipline (no GP, GO, GN and none in the plan of care), or not billed; not a counted therapy line. */
  bucket: TherapyBucket | null;
  /** The line is billed and carries no GP, GO or GN: completion is refused until it does. */
  disciplineModifierMissing: boolean;
  /** An assistant's share past the de minimis 10%: its minutes and CQ or CO; null otherwise. */
  assistant: { kind: AssistantKind; minutes: number; modifier: string } | null;
  /** 85 with CQ or CO due, else 100. */
  paymentPercent: number;
  /** Modifiers due on the line that it does not carry: its discipline's, CQ/CO, KX. */
  proposedModifiers: string[];
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
 * warning. A line without GP, GO or GN takes the plan of care's discipline's (proposed); an assistant's share of a
 * line's minutes past 10% brings CQ or CO (proposed, paid at 85%). `prior`: the bucket's incurred cents before the
 * visit; `feeCents`: the year's allowed amount per unit by code; `planDiscipline`: the plan of care's. Pure: the
 * caller reads the amounts.
 */
export function checkVisitThresholds(
  year: number,
  prior: Readonly<Record<TherapyBucket, number>>,
  lines: readonly VisitLineInput[],
  feeCents: ReadonlyMap<string, number>,
  planDiscipline: TherapyDiscipline | null = null,
): VisitThresholdCheck {
  const thresholds = thresholdsOf(year) ?? null;
  const warnings: MedicareWarning[] = [];
  const checked: VisitLineCheck[] = lines.map((l, index) => {
    const fee = feeCents.get(l.code);
    const billed = l.units > 0;
    const stated = disciplineOfModifiers(l.modifiers);
    const discipline = billed ? (stated ?? planDiscipline) : null;
    const bucket = discipline === null ? null : bucketOfDiscipline(discipline);
    const proposedModifiers: string[] = [];
    if (billed && !stated) {
      if (discipline) proposedModifiers.push(DISCIPLINE_MODIFIERS[discipline]);
      warnings.push({
        code: "DISCIPLINE_MODIFIER_MISSING",
        line: index,
        message: discipline
          ? `${l.code} has no discipline modifier: ${DISCIPLINE_MODIFIERS[discipline]} (the plan of care's ${discipline}) is proposed; completion needs it`
          : `${l.code} has no discipline modifier (GP, GO or GN) and the plan of care states no discipline: it is not counted, and completion needs one`,
      });
    }
    const share = billed && l.assistant && l.duration > 0 ? l.assistant : undefined;
    const assistant =
      share && share.minutes * 100 > l.duration * ASSISTANT_DE_MINIMIS_PERCENT
        ? { kind: share.kind, minutes: share.minutes, modifier: ASSISTANT_MODIFIERS[share.kind] }
        : null;
    if (assistant && !l.modifiers.includes(assistant.modifier)) {
      proposedModifiers.push(assistant.modifier);
      warnings.push({
        code: "ASSISTANT_MODIFIER_DUE",
        line: index,
        bucket: bucket ?? undefined,
        message: `an assistant furnished ${assistant.minutes} of ${l.code}'s ${l.duration} minutes, more than ${ASSISTANT_DE_MINIMIS_PERCENT}%: ${assistant.modifier} is due, paid at ${ASSISTANT_PAYMENT_PERCENT}%`,
      });
    }
    if (bucket !== null && fee === undefined)
      warnings.push({
        code: "FEE_MISSING",
        line: index,
        bucket,
        message: `the ${year} fee schedule has no allowed amount for ${l.code}: it counts as $0.00`,
      });
    return {
      index,
      code: l.code,
      discipline,
      bucket,
      disciplineModifierMissing: billed && !stated,
      assistant,
      paymentPercent: assistant ? ASSISTANT_PAYMENT_PERCENT : 100,
      proposedModifiers,
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
      for (const l of own.slice(from)) {
        l.kxProposed = true;
        if (!l.hasKx) l.proposedModifiers.push("KX");
      }
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
