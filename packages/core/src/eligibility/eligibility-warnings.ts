import type { PatientCase } from "../cases/patient-case.js";
import type { EligibilityCheck, ServiceBenefits } from "./eligibility.js";

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
