import type { CaseVisit } from "./case-visits.js";
import type { Authorization, AuthorizationStatus } from "./authorization.js";
import type { AuthRequiredStatus, PatientCase } from "./patient-case.js";
import { serviceCaseId } from "../kernel/service-case-id.js";

/** A refusal (or, where the clinic says so, a warning) about a visit on a tracked case. */
export interface VisitProblem {
  code: "VISIT_LIMIT_REACHED" | "NO_VALID_AUTHORIZATION";
  message: string;
  details: Record<string, unknown>;
}

/** The calendar date (YYYY-MM-DD) of an instant in a time zone. */
export function localDate(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(
    instant,
  );
}

/** The status a read reports: an authorization past its effective end date is EXPIRED whatever was stored. */
export function reportedAuthorizationStatus(a: Authorization, today: string): AuthorizationStatus {
  return a.status === "ACTIVE" && a.effectiveEndDate < today ? "EXPIRED" : a.status;
}

/**
 * Spec 2.4's auth_required_status: NA when the case does not track visits and is
 * not insurance-paid; AUTH_NOT_REQUIRED when it does not track visits; when it
 * does, AUTH_EXPIRED if it has authorizations and none is active today (their
 * end dates passed), else AUTH_REQUIRED.
 */
export function authRequiredStatus(c: PatientCase, authorizations: Authorization[], today: string): AuthRequiredStatus {
  if (!c.visitTrackRequired) return c.paymentMode === "INSURANCE_PAY" ? "AUTH_NOT_REQUIRED" : "NA";
  const statuses = authorizations.map((a) => reportedAuthorizationStatus(a, today));
  if (statuses.length > 0 && !statuses.includes("ACTIVE") && statuses.includes("EXPIRED")) return "AUTH_EXPIRED";
  return "AUTH_REQUIRED";
}

export interface VisitUsage {
  used: number;
  booked: number;
}

/** Completed visits (checked out or documented by a completed note) and booked ones (still ahead) among `visits`, optionally only those whose local date falls in [from, to]. */
export function visitUsage(
  visits: readonly CaseVisit[],
  timeZoneOf: (clinicId: number) => string,
  window?: { from: string; to: string },
): VisitUsage {
  let used = 0;
  let booked = 0;
  for (const v of visits) {
    if (window) {
      const day = localDate(v.startsAt, timeZoneOf(v.clinicId));
      if (day < window.from || day > window.to) continue;
    }
    if (v.state === "completed") used++;
    else if (v.state === "booked") booked++;
  }
  return { used, booked };
}

/**
 * What stands against one more visit on `c` on `visitDate` (the clinic's local
 * date): the case's visit limit and the authorization whose effective window
 * contains the date. `visits` are the case's appointments other than the one
 * being booked or moved. Empty when the case does not track visits.
 */
export function visitProblems(
  c: PatientCase,
  authorizations: Authorization[],
  visits: readonly CaseVisit[],
  visitDate: string,
  today: string,
  timeZoneOf: (clinicId: number) => string,
): VisitProblem[] {
  if (!c.visitTrackRequired) return [];
  const problems: VisitProblem[] = [];
  const caseKey = serviceCaseId(c.id);
  if (c.caseVisitLimit > 0) {
    const { used, booked } = visitUsage(visits, timeZoneOf);
    const total = c.numberOfPastVisits + used + booked;
    if (total >= c.caseVisitLimit) {
      problems.push({
        code: "VISIT_LIMIT_REACHED",
        message: `Case ${caseKey} has used its visits: ${total} of ${c.caseVisitLimit} used or booked (${c.numberOfPastVisits + used} completed, ${booked} booked)`,
        details: {
          scope: "case",
          service_case_id: caseKey,
          used: c.numberOfPastVisits + used,
          booked,
          limit: c.caseVisitLimit,
        },
      });
    }
  }
  const inEffect = authorizations
    .filter(
      (a) =>
        reportedAuthorizationStatus(a, today) === "ACTIVE" &&
        a.effectiveStartDate <= visitDate &&
        visitDate <= a.effectiveEndDate,
    )
    .sort((a, b) =>
      a.effectiveStartDate < b.effectiveStartDate ? -1 : a.effectiveStartDate > b.effectiveStartDate ? 1 : a.id - b.id,
    )[0];
  if (!inEffect) {
    problems.push({
      code: "NO_VALID_AUTHORIZATION",
      message: `No active authorization of case ${caseKey} covers ${visitDate}`,
      details: {
        service_case_id: caseKey,
        visit_date: visitDate,
        authorizations: authorizations.map((a) => ({
          authorization_id: a.id,
          effective_start_date: a.effectiveStartDate,
          effective_end_date: a.effectiveEndDate,
          status: reportedAuthorizationStatus(a, today),
        })),
      },
    });
    return problems;
  }
  const { used, booked } = visitUsage(visits, timeZoneOf, {
    from: inEffect.effectiveStartDate,
    to: inEffect.effectiveEndDate,
  });
  const total = inEffect.previouslyConsumedVisits + used + booked;
  if (total >= inEffect.authorizedVisits) {
    problems.push({
      code: "VISIT_LIMIT_REACHED",
      message: `Authorization ${inEffect.referenceNumber} has used its visits: ${total} of ${inEffect.authorizedVisits} used or booked (${inEffect.previouslyConsumedVisits + used} completed, ${booked} booked)`,
      details: {
        scope: "authorization",
        authorization_id: inEffect.id,
        reference_number: inEffect.referenceNumber,
        used: inEffect.previouslyConsumedVisits + used,
        booked,
        limit: inEffect.authorizedVisits,
      },
    });
  }
  return problems;
}
