import type { Patch } from "../kernel/patch.js";
import { DomainError, type ValidationIssue } from "../kernel/domain-error.js";
import { BILLING_CODE } from "../kernel/rule-checks.js";

/** A modifier a billing code may carry (spec 2.3's modifier object). */
export interface CptModifier {
  cptModifierId: number;
  cptModifierCode: string;
  className: string;
  description: string;
  filter: boolean;
}

/**
 * A billing code of the organisation's catalog (a CPT or HCPCS number). Timed
 * codes are billed in 15-minute units. Empty applicability lists mean "any".
 * Descriptions are the organisation's own words (CPT descriptions are licensed text).
 */
export interface BillingCode {
  id: number;
  organisationId: number;
  code: string;
  description: string;
  timed: boolean;
  modifiers: CptModifier[];
  specialities: string[];
  noteTypes: string[];
  payerIds: string[];
  active: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export type BillingCodeDraft = Pick<BillingCode, "code" | "description" | "timed"> &
  Patch<Pick<BillingCode, "modifiers" | "specialities" | "noteTypes" | "payerIds" | "active">>;

const MODIFIER = /^[0-9A-Z]{2}$/;

/** Code and modifier codes upper-case, as stored (97110, GP). */
export function normaliseBillingCodes(codes: BillingCodeDraft[]): BillingCodeDraft[] {
  const upper = (v: unknown) => (typeof v === "string" ? v.trim().toUpperCase() : v) as string;
  return codes.map((c) => ({
    ...c,
    code: upper(c.code),
    ...(c.modifiers
      ? { modifiers: c.modifiers.map((m) => ({ ...m, cptModifierCode: upper(m.cptModifierCode) })) }
      : {}),
  }));
}

/** Rules of a catalog upload; throws VALIDATION_FAILED naming every bad row and field. */
export function assertValidBillingCodes(codes: BillingCodeDraft[]): void {
  const issues: ValidationIssue[] = [];
  if (codes.length === 0) issues.push({ field: "codes", reason: "must list at least one billing code" });
  const seen = new Set<string>();
  codes.forEach((c, i) => {
    const at = `codes.${i}`;
    if (typeof c.code !== "string" || !BILLING_CODE.test(c.code))
      issues.push({ field: `${at}.code`, reason: "must be a 5-character CPT or HCPCS code", value: c.code });
    else if (seen.has(c.code)) issues.push({ field: `${at}.code`, reason: "is listed twice", value: c.code });
    else seen.add(c.code);
    if (typeof c.description !== "string" || c.description.trim() === "" || c.description.length > 300)
      issues.push({ field: `${at}.description`, reason: "must be 1 to 300 characters" });
    if (typeof c.timed !== "boolean")
      issues.push({ field: `${at}.timed`, reason: "must be true (15-minute units) or false" });
    const ids = new Set<number>();
    (c.modifiers ?? []).forEach((m, j) => {
      if (!Number.isSafeInteger(m.cptModifierId) || m.cptModifierId <= 0)
        issues.push({
          field: `${at}.modifiers.${j}.cptModifierId`,
          reason: "must be a positive integer",
          value: m.cptModifierId,
        });
      else if (ids.has(m.cptModifierId))
        issues.push({ field: `${at}.modifiers.${j}.cptModifierId`, reason: "is listed twice", value: m.cptModifierId });
      else ids.add(m.cptModifierId);
      if (typeof m.cptModifierCode !== "string" || !MODIFIER.test(m.cptModifierCode))
        issues.push({
          field: `${at}.modifiers.${j}.cptModifierCode`,
          reason: "must be 2 letters or digits, e.g. GP or 59",
          value: m.cptModifierCode,
        });
    });
  });
  if (issues.length) throw DomainError.validation(issues);
}

/** Whether a code applies to a visit: every non-empty applicability list must contain the visit's value. */
export function billingCodeApplies(
  c: BillingCode,
  visit: { speciality?: string | undefined; noteType?: string | undefined; payerId?: string | undefined },
): boolean {
  const fits = (list: string[], value: string | undefined) =>
    list.length === 0 || (value !== undefined && list.includes(value));
  return (
    c.active &&
    fits(c.specialities, visit.speciality) &&
    fits(c.noteTypes, visit.noteType) &&
    fits(c.payerIds, visit.payerId)
  );
}
