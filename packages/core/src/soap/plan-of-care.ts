import { addCalendarDays } from "../kernel/calendar-date.js";
import { disciplineOfText, type TherapyDiscipline } from "../medicare/therapy-discipline.js";

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
  /**
   * Why the therapy is medically necessary, from the evaluation's Plan form (medicalNecessityOf): what Medicare asks
   * of the plan before services past the KX threshold (docs/medicare-therapy.md). null: not written.
   */
  medicalNecessity: string | null;
  /**
   * The therapy discipline of the plan (PT, OT, SLP): the Plan form's `discipline`, else the evaluating
   * provider's credentials (DPT → PT); what GP, GO or GN is proposed from (docs/medicare-therapy.md). null: unknown.
   */
  discipline: TherapyDiscipline | null;
  /**
   * The physician's or NPP's certification of the current period: the date they signed (YYYY-MM-DD) and who, as
   * recorded (POST …/certification); null until then. A re-evaluation starts a new period, to certify again.
   */
  certifiedOn: string | null;
  certifiedBy: string | null;
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
  return addCalendarDays(start, CERTIFICATION_DAYS - 1);
}

/** Every non-empty string of the Plan form under a key whose lower-case name is one of `keys`, in form order. */
function textsUnder(planResponse: Record<string, unknown>, keys: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (value: unknown, under: boolean) => {
    if (typeof value === "string") {
      if (under && value.trim()) out.push(value.trim());
    } else if (Array.isArray(value)) value.forEach((v) => walk(v, under));
    else if (value && typeof value === "object")
      for (const [k, v] of Object.entries(value)) walk(v, under || keys.includes(k.toLowerCase()));
  };
  walk(planResponse, false);
  return out;
}

/** Goals written in the Plan form: every string under a key named "goals" (a list or one text), in form order. */
export const goalsOf = (planResponse: Record<string, unknown>): string[] => textsUnder(planResponse, ["goals"]);

/** The discipline the Plan form states under a key named discipline (PT, OT or SLP); undefined otherwise. */
export const disciplineOf = (planResponse: Record<string, unknown>): TherapyDiscipline | undefined =>
  textsUnder(planResponse, ["discipline"])
    .map(disciplineOfText)
    .find((d) => d !== undefined);

/** The Plan form's medical-necessity justification: the text under keys named medical_necessity (or medicalNecessity); null when none. */
export function medicalNecessityOf(planResponse: Record<string, unknown>): string | null {
  const texts = textsUnder(planResponse, ["medical_necessity", "medicalnecessity"]);
  return texts.length ? texts.join("\n") : null;
}
