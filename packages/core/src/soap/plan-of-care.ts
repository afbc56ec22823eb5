/** Days a plan of care is certified for from the evaluation's service date (inclusive: 90 days). */
export const CERTIFICATION_DAYS = 90;

/**
 * A plan of care: created by the first completed INITIAL_SOAP of a case (or of
 * a patient without a case) and updated by each later one (a re-evaluation),
 * which starts a new certification period.
 */
export interface PlanOfCare {
  id: number;
  organisationId: number;
  patientId: number;
  serviceCaseId: number | null;
  /** The INITIAL_SOAP note that last set the plan. */
  sourceContextId: string;
  diagnoses: { code: string; description: string; isPrimary: boolean | null }[];
  goals: string[];
  /** From the case's frequency_and_duration (free text, e.g. "2x/week for 6 weeks"). */
  frequencyAndDuration: string | null;
  /** Clinic-local dates, YYYY-MM-DD. */
  certificationStart: string;
  certificationEnd: string;
  /** 1 when created, +1 on every update. */
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

/** The last day of a certification period that starts on `start` (YYYY-MM-DD). */
export function certificationEnd(start: string): string {
  const day = new Date(`${start}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + CERTIFICATION_DAYS - 1);
  return day.toISOString().slice(0, 10);
}

/** Goals written in the Plan form: every string under a key named "goals" (a list or one text), in form order. */
export function goalsOf(planResponse: Record<string, unknown>): string[] {
  const out: string[] = [];
  const walk = (value: unknown, underGoals: boolean) => {
    if (typeof value === "string") {
      if (underGoals && value.trim()) out.push(value.trim());
    } else if (Array.isArray(value)) value.forEach((v) => walk(v, underGoals));
    else if (value && typeof value === "object")
      for (const [k, v] of Object.entries(value)) walk(v, underGoals || k.toLowerCase() === "goals");
  };
  walk(planResponse, false);
  return out;
}
