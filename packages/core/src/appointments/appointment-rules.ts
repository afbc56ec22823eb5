import { DomainError, type ValidationIssue } from "../kernel/domain-error.js";
import { isPositiveId } from "../kernel/rule-checks.js";
import { CATALOG_LIMITS } from "../catalog/catalog-rules.js";
import type { AppointmentDraft, CancellationRequest } from "./appointment.js";
import { PAYMENT_MODES } from "../cases/payment-mode.js";

/** Limits a booking must respect (docs/appointments.md). */
export const APPOINTMENT_LIMITS = Object.freeze({
  /** A visit longer than a day is a data-entry error, not a visit. */
  maxDurationMinutes: 24 * 60,
  maxCategories: 20,
  maxTextLength: 4000,
  maxUrlLength: 2048,
  maxCancellationFee: CATALOG_LIMITS.maxCancellationFee,
});

function checkTimes(issues: ValidationIssue[], startsAt: Date, endsAt: Date): void {
  if (Number.isNaN(startsAt.getTime())) issues.push({ field: "startsAt", reason: "must be a valid time" });
  if (Number.isNaN(endsAt.getTime())) issues.push({ field: "endsAt", reason: "must be a valid time" });
  if (issues.length > 0) return;
  const minutes = (endsAt.getTime() - startsAt.getTime()) / 60_000;
  if (minutes <= 0) issues.push({ field: "endsAt", reason: "must be after the start time" });
  else if (minutes > APPOINTMENT_LIMITS.maxDurationMinutes)
    issues.push({
      field: "endsAt",
      reason: `must be at most ${APPOINTMENT_LIMITS.maxDurationMinutes} minutes after the start time`,
    });
}

/** Time bounds of a reschedule; throws VALIDATION_FAILED listing every issue. */
export function assertValidAppointmentTimes(startsAt: Date, endsAt: Date): void {
  const issues: ValidationIssue[] = [];
  checkTimes(issues, startsAt, endsAt);
  if (issues.length > 0) throw DomainError.validation(issues);
}

function checkUrl(issues: ValidationIssue[], url: string | null | undefined): void {
  if (url == null) return;
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || !["https:", "http:"].includes(parsed.protocol) || url.length > APPOINTMENT_LIMITS.maxUrlLength) {
    issues.push({
      field: "teleHealthUrl",
      reason: `must be an http(s) URL of at most ${APPOINTMENT_LIMITS.maxUrlLength} characters`,
      value: url,
    });
  }
}

/** Shape rules of a booking that need no store; throws VALIDATION_FAILED listing every issue. */
export function assertValidAppointmentDraft(d: AppointmentDraft): void {
  const issues: ValidationIssue[] = [];
  for (const field of ["patientId", "doctorId", "clinicId"] as const) {
    if (!isPositiveId(d[field])) issues.push({ field, reason: "must be a positive integer", value: d[field] });
  }
  if (!Array.isArray(d.categoryIds) || d.categoryIds.length === 0)
    issues.push({ field: "categoryIds", reason: "must list at least one category" });
  else if (d.categoryIds.length > APPOINTMENT_LIMITS.maxCategories)
    issues.push({ field: "categoryIds", reason: `must list at most ${APPOINTMENT_LIMITS.maxCategories} categories` });
  else if (!d.categoryIds.every(isPositiveId))
    issues.push({ field: "categoryIds", reason: "must contain positive integers", value: d.categoryIds });
  else if (new Set(d.categoryIds).size !== d.categoryIds.length)
    issues.push({ field: "categoryIds", reason: "must not repeat a category", value: d.categoryIds });
  if (!PAYMENT_MODES.includes(d.paymentMode))
    issues.push({ field: "paymentMode", reason: `must be one of ${PAYMENT_MODES.join(", ")}`, value: d.paymentMode });
  if (d.serviceCaseId != null && !isPositiveId(d.serviceCaseId))
    issues.push({ field: "serviceCaseId", reason: "must be a positive integer", value: d.serviceCaseId });
  checkTimes(issues, d.startsAt, d.endsAt);
  checkUrl(issues, d.teleHealthUrl);
  for (const field of ["comments", "appointmentNotes"] as const) {
    const v = d[field];
    if (v != null && v.length > APPOINTMENT_LIMITS.maxTextLength)
      issues.push({ field, reason: `must be at most ${APPOINTMENT_LIMITS.maxTextLength} characters` });
  }
  if (issues.length > 0) throw DomainError.validation(issues);
}

/** A fee is money: not negative, bounded, at most two decimals. */
export function assertValidCancellation(c: CancellationRequest): void {
  const issues: ValidationIssue[] = [];
  if (typeof c.reasonKey !== "string" || c.reasonKey.trim() === "")
    issues.push({ field: "reasonKey", reason: "must not be empty" });
  if (c.reasonLabel !== undefined && (typeof c.reasonLabel !== "string" || c.reasonLabel.trim() === ""))
    issues.push({ field: "reasonLabel", reason: "must not be empty" });
  if (c.comment != null && c.comment.length > APPOINTMENT_LIMITS.maxTextLength)
    issues.push({ field: "comment", reason: `must be at most ${APPOINTMENT_LIMITS.maxTextLength} characters` });
  if (c.fee !== undefined) {
    const cents = Math.round(c.fee * 100);
    if (
      !Number.isFinite(c.fee) ||
      c.fee < 0 ||
      c.fee > APPOINTMENT_LIMITS.maxCancellationFee ||
      Math.abs(cents - c.fee * 100) > 1e-6
    ) {
      issues.push({
        field: "fee",
        reason: `must be an amount from 0 to ${APPOINTMENT_LIMITS.maxCancellationFee} with at most two decimals`,
        value: c.fee,
      });
    }
  }
  if (issues.length > 0) throw DomainError.validation(issues);
}
