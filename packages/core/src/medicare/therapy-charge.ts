import type { ValidationIssue } from "../kernel/domain-error.js";
import { isCalendarDate } from "../kernel/calendar-date.js";
import type { TherapyBucket } from "./therapy-thresholds.js";

export const THERAPY_BUCKETS = ["PT_SLP", "OT"] as const satisfies readonly TherapyBucket[];

/** Where an incurred amount comes from: a completed visit of this organisation, or one the clinic recorded (another provider this year). */
export type TherapyChargeSource = "visit" | "elsewhere";

/**
 * One amount counted towards a beneficiary's therapy thresholds of a calendar year: a billed line of a completed
 * note (its code, units and the fee schedule's allowed amount at completion), or an amount incurred elsewhere.
 * Written once and never changed: what was billed stays what was counted.
 */
export interface TherapyCharge {
  id: number;
  organisationId: number;
  patientId: number;
  year: number;
  bucket: TherapyBucket;
  source: TherapyChargeSource;
  /** The completed note (visits); null for amounts incurred elsewhere. */
  contextId: string | null;
  /** Clinic-local service date, YYYY-MM-DD. */
  serviceDate: string;
  /** The billing code (visits); null elsewhere. */
  code: string | null;
  units: number;
  /** The line's allowed amount: units × the fee schedule's amount (0 when the schedule has no fee for the code). */
  allowedCents: number;
  /** Whether the fee schedule had the code's amount (false: counted as 0, and said so). */
  priced: boolean;
  /** Whether the line was past the KX threshold when billed (KX proposed). */
  kx: boolean;
  description: string | null;
  recordedBy: number | null;
  createdAt: Date;
}

export const INCURRED_ELSEWHERE_LIMITS = Object.freeze({ descriptionMax: 500, amountMaxCents: 10_000_000 });

/** An amount the clinic records as incurred elsewhere this year (another clinic, a hospital outpatient department). */
export interface IncurredElsewhereDraft {
  serviceDate: string;
  bucket: string;
  /** Dollars, at most two decimals ("412.50"). */
  amount: string;
  description?: string | null | undefined;
}

const AMOUNT = /^\d{1,7}(\.\d{1,2})?$/;

/** The issues of an incurred-elsewhere amount: a real date, a bucket, a positive amount, a short description. */
export function incurredElsewhereIssues(d: IncurredElsewhereDraft): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (typeof d.serviceDate !== "string" || !isCalendarDate(d.serviceDate))
    issues.push({ field: "serviceDate", reason: "must be a date, YYYY-MM-DD", value: d.serviceDate ?? null });
  if (!(THERAPY_BUCKETS as readonly string[]).includes(d.bucket))
    issues.push({ field: "bucket", reason: `must be one of ${THERAPY_BUCKETS.join(", ")}`, value: d.bucket ?? null });
  if (typeof d.amount !== "string" || !AMOUNT.test(d.amount) || Number(d.amount) <= 0)
    issues.push({
      field: "amount",
      reason: "must be a positive amount in dollars with at most two decimals, e.g. 412.50",
      value: d.amount ?? null,
    });
  if (
    d.description != null &&
    (typeof d.description !== "string" || d.description.length > INCURRED_ELSEWHERE_LIMITS.descriptionMax)
  )
    issues.push({
      field: "description",
      reason: `must be text of at most ${INCURRED_ELSEWHERE_LIMITS.descriptionMax} characters`,
    });
  return issues;
}
