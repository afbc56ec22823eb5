import type { ValidationIssue } from "../kernel/domain-error.js";
import { checkDate } from "../kernel/calendar-date.js";
import {
  COVERAGE_PRIORITIES,
  type CoveragePriority,
  SUBSCRIBER_RELATIONSHIPS,
  type SubscriberRelationship,
} from "./coverage.js";

/** A coverage as v2 sends it (spec 4.7 /v2/patients/{id}/coverages): the payer by its registry id. */
export interface CoverageDraft {
  payerRef: number;
  memberId: string;
  groupNumber?: string | null | undefined;
  planName?: string | null | undefined;
  subscriber?: SubscriberInput | null | undefined;
  planStartDate?: string | null | undefined;
  planEndDate?: string | null | undefined;
  priority: CoveragePriority;
  active?: boolean | undefined;
}

export interface SubscriberInput {
  relationship: SubscriberRelationship;
  firstName?: string | null | undefined;
  lastName?: string | null | undefined;
  dateOfBirth?: string | null | undefined;
}

/** A PATCH: omitted fields keep their values. */
export type CoverageChanges = Partial<CoverageDraft>;

export const COVERAGE_LIMITS = { memberIdMax: 50, groupNumberMax: 50, planNameMax: 200, nameMax: 100 } as const;

const text = (issues: ValidationIssue[], field: string, v: unknown, max: number, required: boolean) => {
  if (v == null) {
    if (required) issues.push({ field, reason: "is required" });
    return;
  }
  if (typeof v !== "string" || v.trim() === "" || v.length > max)
    issues.push({ field, reason: `must be 1 to ${max} characters`, value: v });
};

/** Every problem of a coverage as it will be stored (a draft, or a stored coverage with the changes applied). */
export function coverageIssues(c: CoverageDraft): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (!Number.isSafeInteger(c.payerRef) || c.payerRef < 1)
    issues.push({ field: "payerRef", reason: "must be a payer id (GET /v2/payers)", value: c.payerRef });
  text(issues, "memberId", c.memberId, COVERAGE_LIMITS.memberIdMax, true);
  text(issues, "groupNumber", c.groupNumber, COVERAGE_LIMITS.groupNumberMax, false);
  text(issues, "planName", c.planName, COVERAGE_LIMITS.planNameMax, false);
  checkDate(issues, "planStartDate", c.planStartDate);
  checkDate(issues, "planEndDate", c.planEndDate);
  if (c.planStartDate && c.planEndDate && c.planEndDate < c.planStartDate)
    issues.push({ field: "planEndDate", reason: "must not be before planStartDate", value: c.planEndDate });
  if (!COVERAGE_PRIORITIES.includes(c.priority))
    issues.push({ field: "priority", reason: `must be one of ${COVERAGE_PRIORITIES.join(", ")}`, value: c.priority });
  const s = c.subscriber;
  if (s != null) {
    if (!SUBSCRIBER_RELATIONSHIPS.includes(s.relationship))
      issues.push({
        field: "subscriber.relationship",
        reason: `must be one of ${SUBSCRIBER_RELATIONSHIPS.join(", ")}`,
        value: s.relationship,
      });
    else if (s.relationship !== "self") {
      // Someone else's policy: the payer matches the subscriber by name and date of birth (X12 2010BA).
      text(issues, "subscriber.firstName", s.firstName, COVERAGE_LIMITS.nameMax, true);
      text(issues, "subscriber.lastName", s.lastName, COVERAGE_LIMITS.nameMax, true);
      if (s.dateOfBirth == null) issues.push({ field: "subscriber.dateOfBirth", reason: "is required" });
      else checkDate(issues, "subscriber.dateOfBirth", s.dateOfBirth);
    }
  }
  return issues;
}
