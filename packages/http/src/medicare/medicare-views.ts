import {
  type MedicareWarning,
  THERAPY_BUCKETS,
  THERAPY_DISCIPLINES,
  type TherapyCharge,
  type TherapyYear,
  type VisitThresholdCheck,
} from "@openpractice/core";
import {
  arrayOf,
  boolean,
  date,
  described,
  integer,
  integerOrNull,
  oneOfStrings,
  orNull,
  plainText,
  replyObject,
  textOrNull,
  zonelessTime,
} from "../openapi/reply-schemas.js";
import { zonelessUtc } from "../patients/v1-patient-contract.js";

/** Cents as the dollars v1 shows amounts in ("2480.00"). */
export const dollars = (cents: number) => (cents / 100).toFixed(2);
const dollarsOrNull = (cents: number | null) => (cents === null ? null : dollars(cents));
const amount = described(plainText, "Dollars with two decimals");
const amountOrNull = described(textOrNull, "Dollars with two decimals; null when unknown");

const WARNING_CODES = [
  "KX_THRESHOLD_EXCEEDED",
  "REVIEW_THRESHOLD_EXCEEDED",
  "MEDICAL_NECESSITY_MISSING",
  "FEE_MISSING",
  "DISCIPLINE_MODIFIER_MISSING",
  "ASSISTANT_MODIFIER_DUE",
  "CERTIFICATION_DUE",
  "CERTIFICATION_LAPSED",
  "THRESHOLDS_UNKNOWN_FOR_YEAR",
] as const satisfies readonly MedicareWarning["code"][];

export const medicareWarningView = (w: MedicareWarning) => ({
  code: w.code,
  message: w.message,
  bucket: w.bucket ?? null,
  line: w.line ?? null,
});

/** A warning of the Medicare therapy rules (docs/medicare-therapy.md). */
export const medicareWarningSchema = replyObject(
  {
    code: oneOfStrings(WARNING_CODES),
    message: plainText,
    bucket: orNull(oneOfStrings(THERAPY_BUCKETS)),
    line: described(integerOrNull, "The treatment line's index"),
  },
  { title: "MedicareWarning" },
);

const thresholdsView = (t: { kxCents: number; reviewCents: number } | null) =>
  t === null ? null : { kx: dollars(t.kxCents), review: dollars(t.reviewCents) };
const thresholdsSchema = orNull(replyObject({ kx: amount, review: amount }));

/** The thresholds over a treatment sheet's visit (null when the visit is not billed to Medicare Part B). */
export function medicareSheetView(check: VisitThresholdCheck | null) {
  if (check === null) return null;
  return {
    year: check.year,
    thresholds: thresholdsView(check.thresholds),
    buckets: Object.fromEntries(
      THERAPY_BUCKETS.map((b) => {
        const t = check.buckets[b];
        return [
          b,
          {
            prior_amount: dollars(t.priorCents),
            visit_amount: dollars(t.visitCents),
            kx_exceeded: t.kxExceeded,
            review_exceeded: t.reviewExceeded,
          },
        ];
      }),
    ),
    lines: check.lines.map((l) => ({
      line: l.index,
      code: l.code,
      discipline: l.discipline,
      bucket: l.bucket,
      allowed_amount: dollarsOrNull(l.allowedCents),
      proposed_modifiers: l.proposedModifiers,
      kx_required: l.kxProposed,
      assistant_minutes: l.assistant?.minutes ?? null,
      payment_percent: l.paymentPercent,
    })),
    warnings: check.warnings.map(medicareWarningView),
  };
}

const bucketTotalsSchema = replyObject({
  prior_amount: described(amount, "Incurred this year up to the visit's date, before it"),
  visit_amount: amount,
  kx_exceeded: boolean,
  review_exceeded: boolean,
});

export const medicareSheetSchema = orNull(
  replyObject(
    {
      year: integer,
      thresholds: thresholdsSchema,
      buckets: replyObject({ PT_SLP: bucketTotalsSchema, OT: bucketTotalsSchema }),
      lines: arrayOf(
        replyObject({
          line: integer,
          code: plainText,
          discipline: described(
            orNull(oneOfStrings(THERAPY_DISCIPLINES)),
            "The line's GP/GO/GN, else the plan of care's discipline; null when neither, or not billed",
          ),
          bucket: described(orNull(oneOfStrings(THERAPY_BUCKETS)), "null: no discipline, not counted"),
          allowed_amount: amountOrNull,
          proposed_modifiers: described(
            arrayOf(plainText),
            "Modifiers due on the line that it does not carry yet: GP/GO/GN, CQ/CO, KX",
          ),
          kx_required: boolean,
          assistant_minutes: described(
            integerOrNull,
            "A therapy assistant's minutes when more than 10% of the line's (CQ or CO due); null otherwise",
          ),
          payment_percent: described(integer, "85 with CQ or CO due, else 100"),
        }),
      ),
      warnings: arrayOf(medicareWarningSchema),
    },
    {
      title: "MedicareVisitThresholds",
      description: "The Medicare therapy thresholds over the visit; null when it is not billed to Medicare Part B",
    },
  ),
);

export const therapyChargeView = (c: TherapyCharge) => ({
  id: c.id,
  source: c.source,
  bucket: c.bucket,
  service_date: c.serviceDate,
  soap_context_id: c.contextId,
  code: c.code,
  units: c.units,
  allowed_amount: dollars(c.allowedCents),
  priced: c.priced,
  kx: c.kx,
  description: c.description,
  recorded_by: c.recordedBy,
  created_at: zonelessUtc(c.createdAt),
});

export const therapyChargeSchema = replyObject(
  {
    id: integer,
    source: oneOfStrings(["visit", "elsewhere"]),
    bucket: oneOfStrings(THERAPY_BUCKETS),
    service_date: date,
    soap_context_id: described(textOrNull, "The completed note (visits)"),
    code: textOrNull,
    units: integer,
    allowed_amount: amount,
    priced: described(boolean, "false: the fee schedule had no amount for the code, counted as 0.00"),
    kx: described(boolean, "The line was past the KX threshold when billed"),
    description: textOrNull,
    recorded_by: described(integerOrNull, "The user who recorded an amount incurred elsewhere"),
    created_at: zonelessTime,
  },
  { title: "TherapyCharge" },
);

export function therapyYearView(y: TherapyYear) {
  return {
    patient_id: y.patientId,
    year: y.year,
    thresholds: thresholdsView(y.thresholds),
    buckets: Object.fromEntries(
      THERAPY_BUCKETS.map((b) => {
        const t = y.buckets[b];
        return [
          b,
          {
            incurred: dollars(t.incurredCents),
            remaining_to_kx: dollarsOrNull(t.kxRemainingCents),
            remaining_to_review: dollarsOrNull(t.reviewRemainingCents),
            charges: y.charges.filter((c) => c.bucket === b).map(therapyChargeView),
          },
        ];
      }),
    ),
  };
}

const yearBucketSchema = replyObject({
  incurred: amount,
  remaining_to_kx: amountOrNull,
  remaining_to_review: amountOrNull,
  charges: arrayOf(therapyChargeSchema, "The amounts that count, by service date"),
});

export const therapyYearSchema = replyObject(
  {
    patient_id: integer,
    year: integer,
    thresholds: described(thresholdsSchema, "null: the year's thresholds are not known to this version"),
    buckets: replyObject({ PT_SLP: yearBucketSchema, OT: yearBucketSchema }),
  },
  { title: "TherapyThresholdYear" },
);
