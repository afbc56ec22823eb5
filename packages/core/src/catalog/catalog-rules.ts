import { DomainError, type ValidationIssue } from "../kernel/domain-error.js";
import type { Patch } from "../kernel/patch.js";

export const CATALOG_LIMITS = Object.freeze({
  nameMax: 100,
  minMinutes: 5,
  maxMinutes: 480,
  labelMax: 200,
  /** A cancellation reason's fee, and the fee a cancellation charges. */
  maxCancellationFee: 100_000,
});

export interface AppointmentTypeDraft {
  name: string;
  type: string;
  durationMinutes: number;
  colour?: string | null | undefined;
}
export type AppointmentTypeChanges = Patch<AppointmentTypeDraft & { active: boolean }>;

export interface CancellationReasonDraft {
  reasonKey: string;
  reasonLabel: string;
  cancellationFee?: number | undefined;
}
export type CancellationReasonChanges = Patch<
  Omit<CancellationReasonDraft, "reasonKey"> & { status: "ACTIVE" | "INACTIVE" }
>;

/** The rules of an appointment type (category): name, type word, duration in minutes, colour. */
export function assertValidAppointmentType(
  input: AppointmentTypeDraft | AppointmentTypeChanges,
  creating: boolean,
): void {
  const issues: ValidationIssue[] = [];
  if (input.name !== undefined || creating)
    if (typeof input.name !== "string" || input.name.trim() === "" || input.name.trim().length > CATALOG_LIMITS.nameMax)
      issues.push({
        field: "name",
        reason: `must be 1 to ${CATALOG_LIMITS.nameMax} characters`,
        value: input.name ?? null,
      });
  if (input.type !== undefined || creating)
    if (typeof input.type !== "string" || !/^[A-Z][A-Z_]{0,29}$/.test(input.type))
      issues.push({
        field: "type",
        reason: "must be a word in capitals, e.g. IN_PERSON or TELEHEALTH",
        value: input.type ?? null,
      });
  if (input.durationMinutes !== undefined || creating) {
    const m = input.durationMinutes;
    if (
      !Number.isSafeInteger(m) ||
      (m as number) < CATALOG_LIMITS.minMinutes ||
      (m as number) > CATALOG_LIMITS.maxMinutes
    )
      issues.push({
        field: "durationMinutes",
        reason: `must be whole minutes from ${CATALOG_LIMITS.minMinutes} to ${CATALOG_LIMITS.maxMinutes}`,
        value: m ?? null,
      });
  }
  if (input.colour !== undefined && input.colour !== null && !/^#[0-9A-Fa-f]{6}$/.test(input.colour))
    issues.push({ field: "colour", reason: "must be a colour as #RRGGBB", value: input.colour });
  if (issues.length) throw DomainError.validation(issues);
}

/** The rules of a cancellation reason: a key of letters, digits and . _ -, a label, a fee within the booking bounds. */
export function assertValidCancellationReason(
  input: CancellationReasonDraft | CancellationReasonChanges,
  creating: boolean,
): void {
  const issues: ValidationIssue[] = [];
  if (creating) {
    const key = (input as CancellationReasonDraft).reasonKey;
    if (typeof key !== "string" || !/^[A-Za-z0-9_.-]{1,64}$/.test(key))
      issues.push({
        field: "reasonKey",
        reason: "must be 1 to 64 letters, digits, dots, dashes or underscores",
        value: key ?? null,
      });
  }
  if (input.reasonLabel !== undefined || creating)
    if (
      typeof input.reasonLabel !== "string" ||
      input.reasonLabel.trim() === "" ||
      input.reasonLabel.trim().length > CATALOG_LIMITS.labelMax
    )
      issues.push({
        field: "reasonLabel",
        reason: `must be 1 to ${CATALOG_LIMITS.labelMax} characters`,
        value: input.reasonLabel ?? null,
      });
  const fee = input.cancellationFee;
  if (
    fee !== undefined &&
    (typeof fee !== "number" || !Number.isFinite(fee) || fee < 0 || fee > CATALOG_LIMITS.maxCancellationFee)
  )
    issues.push({
      field: "cancellationFee",
      reason: `must be between 0 and ${CATALOG_LIMITS.maxCancellationFee}`,
      value: fee,
    });
  if (issues.length) throw DomainError.validation(issues);
}
