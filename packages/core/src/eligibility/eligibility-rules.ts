import type { PatientCase } from "../cases/patient-case.js";
import type { ValidationIssue } from "../errors/domain-error.js";
import { isCalendarDate } from "../patients/patient-rules.js";
import {
  ELIGIBILITY_SERVICE_TYPES,
  type EligibilityCheck,
  type EligibilityResult,
  type ServiceBenefits,
} from "./eligibility.js";

const amount = (v: unknown) => v === null || (typeof v === "number" && Number.isFinite(v) && v >= 0 && v < 1e9);
const count = (v: unknown) => v === null || (typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= 10_000);

/** Shape rules of a result recorded by hand (the real-time parser builds only valid ones). */
export function eligibilityResultIssues(result: EligibilityResult | undefined): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (!result || typeof result.active !== "boolean") {
    issues.push({ field: "active", reason: "is required: true or false" });
    return issues;
  }
  for (const f of ["planStartDate", "planEndDate"] as const) {
    const v = result[f];
    if (v !== null && v !== undefined && !isCalendarDate(v))
      issues.push({ field: f, reason: "must be a date as YYYY-MM-DD", value: v });
  }
  if (result.planStartDate && result.planEndDate && result.planEndDate < result.planStartDate)
    issues.push({ field: "planEndDate", reason: "must not be before planStartDate", value: result.planEndDate });
  for (const [type, b] of Object.entries(result.benefits ?? {}) as Array<[string, ServiceBenefits]>) {
    const at = `benefits.${type}`;
    if (!ELIGIBILITY_SERVICE_TYPES.includes(type as never)) {
      issues.push({ field: at, reason: `must be one of ${ELIGIBILITY_SERVICE_TYPES.join(", ")}` });
      continue;
    }
    if (!amount(b.copay)) issues.push({ field: `${at}.copay`, reason: "must be an amount of dollars or null" });
    if (!(b.coinsurancePercent === null || (amount(b.coinsurancePercent) && b.coinsurancePercent <= 100)))
      issues.push({ field: `${at}.coinsurancePercent`, reason: "must be from 0 to 100 or null" });
    for (const k of ["deductible", "outOfPocket"] as const)
      for (const part of ["total", "remaining"] as const)
        if (!amount(b[k][part])) issues.push({ field: `${at}.${k}.${part}`, reason: "must be an amount or null" });
    for (const part of ["limit", "used", "remaining"] as const)
      if (!count(b.visits[part])) issues.push({ field: `${at}.visits.${part}`, reason: "must be a count or null" });
  }
  return issues;
}

export interface EligibilityWarning {
  code: "PRIOR_AUTHORIZATION_REQUIRED" | "VISITS_REMAINING_BELOW_PLAN" | "COVERAGE_INACTIVE";
  coverageId: number;
  checkId: number;
  message: string;
}

/**
 * What the newest answered checks of a case's coverages say against the case: prior authorization required (for
 * any service type asked), fewer visits remaining than the case still plans (its visit limit less visits used and
 * booked), or the coverage inactive.
 */
export function eligibilityWarnings(
  c: Pick<PatientCase, "caseVisitLimit">,
  visits: { used: number; booked: number },
  checks: readonly EligibilityCheck[],
): EligibilityWarning[] {
  const warnings: EligibilityWarning[] = [];
  const planned = c.caseVisitLimit > 0 ? Math.max(0, c.caseVisitLimit - visits.used - visits.booked) : 0;
  for (const check of checks) {
    const result = check.result;
    if (!result) continue;
    const at = { coverageId: check.coverageId, checkId: check.id };
    if (!result.active) {
      warnings.push({
        code: "COVERAGE_INACTIVE",
        ...at,
        message: `The payer reported the coverage inactive on ${check.serviceDate}`,
      });
      continue;
    }
    const benefits = Object.entries(result.benefits) as Array<[string, ServiceBenefits]>;
    const needing = benefits.filter(([, b]) => b.priorAuthorizationRequired === true).map(([t]) => t);
    if (needing.length > 0)
      warnings.push({
        code: "PRIOR_AUTHORIZATION_REQUIRED",
        ...at,
        message: `The payer requires prior authorization for service type ${needing.join(", ")}`,
      });
    const remaining = benefits
      .map(([t, b]) => [t, b.visits.remaining] as const)
      .filter((e): e is readonly [string, number] => e[1] !== null);
    const lowest = remaining.sort((a, b) => a[1] - b[1])[0];
    if (lowest && lowest[1] < planned)
      warnings.push({
        code: "VISITS_REMAINING_BELOW_PLAN",
        ...at,
        message: `${lowest[1]} visits remain for service type ${lowest[0]}; the case plans ${planned} more`,
      });
  }
  return warnings;
}
