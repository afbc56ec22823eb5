import { addCalendarDays } from "../kernel/calendar-date.js";

/**
 * The plan of care's certification (CMS Pub. 100-02, chapter 15, section 220.1.3; 42 CFR 424.24(c)): the physician
 * or NPP certifies the plan, signed and dated, within 30 days of the initial evaluation, and recertifies it at least
 * every 90 days or when its duration ends. OpenPractice warns 10 days ahead and after a lapse (docs/medicare-therapy.md).
 */
export const CERTIFICATION_RULES = Object.freeze({ initialWithinDays: 30, warnDaysAhead: 10 });

/**
 * PENDING: not certified, not due within 10 days; DUE_SOON: not certified, due within 10 days; CERTIFIED; RECERT_DUE:
 * certified, the period ends within 10 days; LAPSED: not certified within 30 days, or the period ended.
 */
export type CertificationStatus = "PENDING" | "DUE_SOON" | "CERTIFIED" | "RECERT_DUE" | "LAPSED";

export interface CertificationState {
  status: CertificationStatus;
  /** The certification's due date (the evaluation + 30 days), or when certified the period's last day. */
  dueDate: string;
}

/** The dates a plan's certification is judged by. */
export interface CertifiedPeriod {
  certificationStart: string;
  certificationEnd: string;
  certifiedOn: string | null;
}

const addDays = addCalendarDays;

/** Where a plan's certification stands on `day` (YYYY-MM-DD, clinic-local). */
export function certificationState(plan: CertifiedPeriod, day: string): CertificationState {
  const { initialWithinDays, warnDaysAhead } = CERTIFICATION_RULES;
  if (plan.certifiedOn === null) {
    const due = addDays(plan.certificationStart, initialWithinDays);
    const status = day > due ? "LAPSED" : day >= addDays(due, -warnDaysAhead) ? "DUE_SOON" : "PENDING";
    return { status, dueDate: due };
  }
  const end = plan.certificationEnd;
  const status = day > end ? "LAPSED" : day >= addDays(end, -warnDaysAhead) ? "RECERT_DUE" : "CERTIFIED";
  return { status, dueDate: end };
}
