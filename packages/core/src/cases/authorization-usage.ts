import type { Authorization } from "./authorization.js";
import { caseVisitReader, type CaseVisitRepositories } from "./case-visits.js";
import { reportedAuthorizationStatus, visitUsage } from "./visit-tracking.js";

/** An authorization as reads show it: the reported status and its visits counted from the case's appointments. */
export interface AuthorizationView {
  authorization: Authorization;
  reportedStatus: Authorization["status"];
  /** Completed visits in the window, including those consumed before tracking. */
  currentVisits: number;
  /** Visits booked in the window and not yet completed. */
  bookedVisits: number;
  /** Authorized visits neither completed nor booked (never below 0). */
  remainingVisits: number;
}

/**
 * Views of authorizations of one organisation, reading clinics once and each case's appointments once: what the
 * authorization reads answer and what the tasks' authorization rule decides on. `today` is YYYY-MM-DD.
 */
export async function authorizationViews(
  r: CaseVisitRepositories,
  authorizations: readonly Authorization[],
  today: string,
): Promise<AuthorizationView[]> {
  if (authorizations.length === 0) return [];
  const reader = await caseVisitReader(r, authorizations[0]!.organisationId);
  return Promise.all(
    authorizations.map(async (a) => {
      const usage = visitUsage(await reader.visitsOf(a.caseId), reader.zoneOf, {
        from: a.effectiveStartDate,
        to: a.effectiveEndDate,
      });
      const currentVisits = a.previouslyConsumedVisits + usage.used;
      return {
        authorization: a,
        reportedStatus: reportedAuthorizationStatus(a, today),
        currentVisits,
        bookedVisits: usage.booked,
        remainingVisits: Math.max(0, a.authorizedVisits - currentVisits - usage.booked),
      };
    }),
  );
}
