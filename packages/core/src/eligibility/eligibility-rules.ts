import type { ValidationIssue } from "../kernel/domain-error.js";
import { isCalendarDate } from "../kernel/calendar-date.js";
import { ELIGIBILITY_SERVICE_TYPES, type EligibilityResult, type ServiceBenefits } from "./eligibility.js";

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
