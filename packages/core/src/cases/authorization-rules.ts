import { DomainError, type ValidationIssue } from "../kernel/domain-error.js";
import { AUTHORIZATION_STATUSES, type Authorization, type AuthorizationChanges } from "./authorization.js";
import { checkDate } from "../kernel/calendar-date.js";
import { checkIcdCodes, normaliseIcdCodes } from "./case-rules.js";
import { BILLING_CODE, isPositiveId } from "../kernel/rule-checks.js";

const count = (v: unknown) => typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= 10_000;

/** ICD and CPT codes upper-case, as stored and compared. */
export function normaliseAuthorizationInput<T extends AuthorizationChanges>(input: T): T {
  return {
    ...input,
    icdCodes: normaliseIcdCodes(input.icdCodes),
    cptCodeAuthorizationDetails: input.cptCodeAuthorizationDetails?.map((d) =>
      typeof d?.cptCode === "string" ? { ...d, cptCode: d.cptCode.trim().toUpperCase() } : d,
    ),
  };
}

/** Field rules of an authorization draft (creating) or change; throws VALIDATION_FAILED listing every issue. */
export function assertValidAuthorizationInput(
  input: AuthorizationChanges & { caseId?: number },
  creating: boolean,
): void {
  const issues: ValidationIssue[] = [];
  if (creating && !isPositiveId(input.caseId))
    issues.push({ field: "caseId", reason: "must be a case id", value: input.caseId });
  for (const f of ["referenceNumber", "payerName"] as const) {
    const v = input[f];
    // Granted under a coverage, the payer is the coverage's unless one is named.
    const required = creating && (f === "referenceNumber" || input.coverageId == null);
    if ((required || v !== undefined) && (typeof v !== "string" || v.trim() === "" || v.length > 100))
      issues.push({ field: f, reason: "must be 1 to 100 characters" });
  }
  if (input.coverageId != null && !isPositiveId(input.coverageId))
    issues.push({ field: "coverageId", reason: "must be a coverage id", value: input.coverageId });
  for (const f of ["effectiveStartDate", "effectiveEndDate"] as const) {
    if (creating && input[f] == null) issues.push({ field: f, reason: "is required" });
    checkDate(issues, f, input[f]);
  }
  for (const f of ["planStartDate", "planEndDate"] as const) checkDate(issues, f, input[f]);
  if (
    (creating || input.authorizedVisits !== undefined) &&
    !(count(input.authorizedVisits) && (input.authorizedVisits as number) > 0)
  ) {
    issues.push({
      field: "authorizedVisits",
      reason: "must be an integer from 1 to 10000",
      value: input.authorizedVisits,
    });
  }
  if (input.previouslyConsumedVisits !== undefined && !count(input.previouslyConsumedVisits))
    issues.push({ field: "previouslyConsumedVisits", reason: "must be an integer from 0 to 10000" });
  if (input.status !== undefined && !AUTHORIZATION_STATUSES.includes(input.status))
    issues.push({
      field: "status",
      reason: `must be one of ${AUTHORIZATION_STATUSES.join(", ")}`,
      value: input.status,
    });
  checkIcdCodes(issues, "icdCodes", input.icdCodes);
  (input.cptCodeAuthorizationDetails ?? []).forEach((d, i) => {
    if (typeof d.cptCode !== "string" || !BILLING_CODE.test(d.cptCode))
      issues.push({
        field: `cptCodeAuthorizationDetails.${i}.cptCode`,
        reason: "must be a 5-character CPT or HCPCS code",
        value: d.cptCode,
      });
    if (!count(d.authorizedUnits))
      issues.push({
        field: `cptCodeAuthorizationDetails.${i}.authorizedUnits`,
        reason: "must be an integer from 0 to 10000",
        value: d.authorizedUnits,
      });
  });
  if (issues.length > 0) throw DomainError.validation(issues);
}

/** Checks the merged authorization: windows in order and visits within the authorized count. */
export function assertConsistentAuthorization(
  a: Pick<
    Authorization,
    | "effectiveStartDate"
    | "effectiveEndDate"
    | "planStartDate"
    | "planEndDate"
    | "previouslyConsumedVisits"
    | "authorizedVisits"
  >,
): void {
  const issues: ValidationIssue[] = [];
  if (a.effectiveEndDate < a.effectiveStartDate)
    issues.push({
      field: "effectiveEndDate",
      reason: "must not be before effectiveStartDate",
      value: a.effectiveEndDate,
    });
  if (a.planStartDate && a.planEndDate && a.planEndDate < a.planStartDate)
    issues.push({ field: "planEndDate", reason: "must not be before planStartDate", value: a.planEndDate });
  if (a.previouslyConsumedVisits > a.authorizedVisits)
    issues.push({
      field: "previouslyConsumedVisits",
      reason: `must not exceed authorizedVisits (${a.authorizedVisits})`,
      value: a.previouslyConsumedVisits,
    });
  if (issues.length > 0) throw DomainError.validation(issues);
}
