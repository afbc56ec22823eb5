import type { BillingCode } from "../billing/billing-code.js";
import { DomainError, type ValidationIssue } from "../kernel/domain-error.js";
import { supportedUnits } from "./billing-units.js";
import type {
  ProvidedMinutes,
  TreatmentLine,
  TreatmentLineInput,
  TreatmentModifier,
  TreatmentSheetAssessment,
} from "./treatment-sheet.js";
import type { BillingUnitRule } from "../organisations/billing-unit-rule.js";

/** Bounds of a treatment sheet: more lines than a visit holds, or minutes and units past a day, are data-entry mistakes. */
export const TREATMENT_LIMITS = Object.freeze({ maxLines: 50, maxMinutes: 24 * 60, maxUnits: 96, maxProviders: 5 });

/**
 * Checks a sheet's lines against the organisation's catalog and returns them
 * with each modifier as the catalog defines it. Throws VALIDATION_FAILED
 * naming every bad line and field (treatments.<i>.<field>).
 */
export function normaliseTreatments(
  lines: readonly TreatmentLineInput[],
  catalog: ReadonlyMap<number, BillingCode>,
): TreatmentLine[] {
  const issues: ValidationIssue[] = [];
  if (!Array.isArray(lines))
    throw DomainError.validation([{ field: "treatments", reason: "must be an array of treatments" }]);
  if (lines.length > TREATMENT_LIMITS.maxLines)
    issues.push({ field: "treatments", reason: `must hold at most ${TREATMENT_LIMITS.maxLines} lines` });
  const seen = new Set<number>();
  const out = lines.map((line, i) => {
    const at = `treatments.${i}`;
    const code = catalog.get(line.treatmentClassId);
    if (!code || !code.active)
      issues.push({
        field: `${at}.treatmentClassId`,
        reason: "is not an active billing code of the organisation's catalog",
        value: line.treatmentClassId,
      });
    else if (seen.has(code.id))
      issues.push({
        field: `${at}.treatmentClassId`,
        reason: "is listed twice; put the minutes and units on one line",
        value: line.treatmentClassId,
      });
    else seen.add(code.id);
    if (!Number.isSafeInteger(line.duration) || line.duration < 0 || line.duration > TREATMENT_LIMITS.maxMinutes)
      issues.push({
        field: `${at}.duration`,
        reason: `must be whole minutes from 0 to ${TREATMENT_LIMITS.maxMinutes}`,
        value: line.duration,
      });
    if (!Number.isSafeInteger(line.units) || line.units < 0 || line.units > TREATMENT_LIMITS.maxUnits)
      issues.push({
        field: `${at}.units`,
        reason: `must be a whole number from 0 to ${TREATMENT_LIMITS.maxUnits}`,
        value: line.units,
      });
    const sent: NonNullable<TreatmentLineInput["modifiers"]> = line.modifiers ?? [];
    const modifiers = sent.map((m, j): TreatmentModifier => {
      const known = code?.modifiers.find((k) => k.cptModifierId === m.cptModifierId);
      if (code && !known)
        issues.push({
          field: `${at}.modifiers.${j}.cptModifierId`,
          reason: `is not a modifier of billing code ${code.code}`,
          value: m.cptModifierId,
        });
      else if (
        known &&
        m.cptModifierCode !== undefined &&
        m.cptModifierCode !== null &&
        String(m.cptModifierCode).toUpperCase() !== known.cptModifierCode
      ) {
        issues.push({
          field: `${at}.modifiers.${j}.cptModifierCode`,
          reason: `does not match modifier ${known.cptModifierId} (${known.cptModifierCode})`,
          value: m.cptModifierCode,
        });
      }
      // Without a known modifier an issue is recorded above (unknown code or modifier) and nothing is stored.
      return (
        known ?? { cptModifierId: m.cptModifierId, cptModifierCode: "", className: "", description: "", filter: false }
      );
    });
    if (new Set(modifiers.map((m) => m.cptModifierId)).size !== modifiers.length)
      issues.push({ field: `${at}.modifiers`, reason: "lists a modifier twice" });
    const providedBy = providedByOf(line, at, issues);
    return {
      treatmentClassId: line.treatmentClassId,
      duration: line.duration,
      units: line.units,
      modifiers: structuredClone(modifiers),
      ...(providedBy.length ? { providedBy } : {}),
    };
  });
  if (issues.length) throw DomainError.validation(issues);
  return out;
}

/**
 * A line's minutes by provider: at most 5 providers, each once, whole minutes that add up to no more than the
 * line's. Whether each is a provider of the organisation is the service's check (it reads them).
 */
function providedByOf(line: TreatmentLineInput, at: string, issues: ValidationIssue[]): ProvidedMinutes[] {
  const sent = line.providedBy ?? [];
  if (!Array.isArray(sent) || sent.length > TREATMENT_LIMITS.maxProviders) {
    issues.push({ field: `${at}.providedBy`, reason: `must list at most ${TREATMENT_LIMITS.maxProviders} providers` });
    return [];
  }
  const seen = new Set<number>();
  let total = 0;
  sent.forEach((p, j) => {
    if (!Number.isSafeInteger(p.userId) || p.userId < 1)
      issues.push({ field: `${at}.providedBy.${j}.userId`, reason: "must be a provider's user id", value: p.userId });
    else if (seen.has(p.userId))
      issues.push({ field: `${at}.providedBy.${j}.userId`, reason: "is listed twice", value: p.userId });
    else seen.add(p.userId);
    if (!Number.isSafeInteger(p.minutes) || p.minutes < 0)
      issues.push({ field: `${at}.providedBy.${j}.minutes`, reason: "must be whole minutes", value: p.minutes });
    else total += p.minutes;
  });
  if (Number.isSafeInteger(line.duration) && total > line.duration)
    issues.push({
      field: `${at}.providedBy`,
      reason: `adds up to ${total} minutes, more than the line's ${line.duration}`,
    });
  return sent.map((p) => ({ userId: p.userId, minutes: p.minutes }));
}

/** The lines with their codes and the units `rule` supports for each; over-billed lines block completion. */
export function assessTreatments(
  rule: BillingUnitRule,
  lines: readonly TreatmentLine[],
  catalog: ReadonlyMap<number, BillingCode>,
): TreatmentSheetAssessment {
  const described = lines.map((l) => {
    const code = catalog.get(l.treatmentClassId);
    // A code removed from the catalog after the sheet was written still shows; it counts as timed so its units stay checked.
    return {
      ...l,
      code: code?.code ?? "",
      description: code?.description ?? "(no longer in the catalog)",
      timed: code?.timed ?? true,
    };
  });
  const supported = supportedUnits(rule, described);
  const assessed = described.map((l, i) => ({
    ...l,
    supportedUnits: supported[i]!,
    overBilled: l.units > supported[i]!,
  }));
  const sum = (f: (l: (typeof assessed)[number]) => number) => assessed.reduce((total, l) => total + f(l), 0);
  return {
    rule,
    totalTimedMinutes: sum((l) => (l.timed ? l.duration : 0)),
    totalUnits: sum((l) => l.units),
    totalSupportedUnits: sum((l) => l.supportedUnits),
    overBilled: assessed.some((l) => l.overBilled),
    lines: assessed,
  };
}
