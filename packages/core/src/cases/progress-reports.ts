import { localDate } from "./visit-tracking.js";
import type { VisitNote } from "./case-visits.js";

/**
 * Medicare's progress report rule (CMS Pub. 100-02, chapter 15, section 220.3.D; docs/medicare-therapy.md): a
 * progress report at least once every 10 treatment days of an episode. An evaluation or re-evaluation
 * (INITIAL_SOAP) and a PROGRESS_REPORT note each start a new reporting period, their own day counted as its first.
 */
export const PROGRESS_REPORT_INTERVAL = 10;
export const REPORTING_NOTE_TYPES: readonly string[] = Object.freeze(["INITIAL_SOAP", "PROGRESS_REPORT"]);

/** Where a case's reporting period stands: treatment days (distinct clinic-local dates) since the last report. */
export interface ProgressReportPeriod {
  treatmentDays: number;
  /** The last report's service time; null when the case has none yet (days count from its first visit). */
  lastReportAt: Date | null;
}

/**
 * The treatment days of the current reporting period among a case's completed notes (any order; addenda are not
 * visits): from the last evaluation or progress report on, each clinic-local date once.
 */
export function progressReportPeriod(
  notes: ReadonlyArray<Pick<VisitNote, "type" | "serviceDateTime" | "clinicId" | "completed">>,
  zoneOf: (clinicId: number) => string,
): ProgressReportPeriod {
  const visits = notes
    .filter((n) => n.completed && n.type !== "ADDENDUM")
    .sort((a, b) => a.serviceDateTime.getTime() - b.serviceDateTime.getTime());
  let from = 0;
  visits.forEach((n, i) => {
    if (REPORTING_NOTE_TYPES.includes(n.type)) from = i;
  });
  const period = visits.slice(from);
  const report = period[0] && REPORTING_NOTE_TYPES.includes(period[0].type) ? period[0] : undefined;
  return {
    treatmentDays: new Set(period.map((n) => localDate(n.serviceDateTime, zoneOf(n.clinicId)))).size,
    lastReportAt: report?.serviceDateTime ?? null,
  };
}
