import type { AuthorizationView } from "../cases/authorization-usage.js";
import type { PatientCase } from "../cases/patient-case.js";
import type { TaskPriority, TaskRule, TaskSubjectType } from "./task.js";
import { type CertifiedPeriod, certificationState } from "../medicare/plan-certification.js";
import { addCalendarDays } from "../kernel/calendar-date.js";

/**
 * The conditions under which the system raises a task, as pure functions of the records they read (the rule
 * service reads them and acts). Titles carry no patient data: an inbox entry and a push show them on a lock screen.
 */

/** Each rule, the kind of record it watches, and what its task is for (docs/tasks.md lists them from here). */
export const TASK_RULE_SUBJECTS: Readonly<Record<TaskRule, TaskSubjectType>> = Object.freeze({
  soap_cosign: "soap_note",
  authorization_low: "authorization",
  document_quarantined: "document",
  plan_certification: "case",
});

/** Visits left at or below which an authorization raises a task, and days to its end within which it does. */
export const AUTHORIZATION_LOW = Object.freeze({ visitsLeft: 2, daysToEnd: 7 });

/** What a holding condition raises: the task's fields, its assignee named by user id (a provider's). */
export interface RaisedTaskFields {
  title: string;
  description: string;
  patientId: number;
  clinicId: number | null;
  assigneeUserId: number | null;
  priority: TaskPriority;
  dueAt: Date;
}

/** A condition holds (raise one task), or cleared: resolve (done) or withdraw (cancelled), with the reason. */
export type RuleVerdict =
  | { holds: true; task: RaisedTaskFields }
  | { holds: false; trigger: "resolve" | "withdraw"; resolution: string };

const HOUR = 3_600_000;

/** The rule's key for one subject: one task per key and organisation while the condition holds. */
export const ruleKeyOf = (rule: TaskRule, subjectId: string) => `${rule}:${TASK_RULE_SUBJECTS[rule]}:${subjectId}`;

/** soap_cosign: a note signed by its author and waiting for the supervising physician (status COSIGN). */
export function cosignVerdict(
  note: { status: string; patientId: number; clinicId: number; supervisingPhysician: number | null } | undefined,
  now: Date,
): RuleVerdict {
  if (note?.status === "COSIGN")
    return {
      holds: true,
      task: {
        title: "Co-sign SOAP note",
        description: "A note signed by its author is waiting for your co-signature.",
        patientId: note.patientId,
        clinicId: note.clinicId,
        assigneeUserId: note.supervisingPhysician,
        priority: "normal",
        dueAt: new Date(now.getTime() + 48 * HOUR),
      },
    };
  if (note?.status === "REVISION") return { holds: false, trigger: "withdraw", resolution: "returned_for_revision" };
  if (!note) return { holds: false, trigger: "withdraw", resolution: "note_removed" };
  return { holds: false, trigger: "resolve", resolution: "cosigned" };
}

const addDays = addCalendarDays;

/**
 * authorization_low: an authorization stored ACTIVE on an open (ACTIVE) case with two visits or fewer left (of
 * those authorized, neither completed nor booked), or whose effective end date is within seven days of `today`
 * (YYYY-MM-DD, or past). Expiry alone does not clear it: someone has to ask the payer for more.
 */
export function authorizationVerdict(
  view: AuthorizationView | undefined,
  patientCase: Pick<PatientCase, "treatmentStatus" | "therapistIds" | "clinicId"> | undefined,
  today: string,
  now: Date,
): RuleVerdict {
  const a = view?.authorization;
  if (!a || !patientCase || patientCase.treatmentStatus !== "ACTIVE" || a.status !== "ACTIVE")
    return { holds: false, trigger: "withdraw", resolution: "condition_cleared" };
  const fewVisits = a.authorizedVisits > 0 && view.remainingVisits <= AUTHORIZATION_LOW.visitsLeft;
  const ending = a.effectiveEndDate <= addDays(today, AUTHORIZATION_LOW.daysToEnd);
  if (!fewVisits && !ending) return { holds: false, trigger: "resolve", resolution: "authorization_extended" };
  const ended = a.effectiveEndDate < today;
  const reasons = [
    ...(fewVisits ? [`${view.remainingVisits} of ${a.authorizedVisits} authorized visits left`] : []),
    ...(ending ? [ended ? `ended on ${a.effectiveEndDate}` : `ends on ${a.effectiveEndDate}`] : []),
  ];
  const endNoon = Date.parse(`${a.effectiveEndDate}T12:00:00Z`);
  const inThreeDays = now.getTime() + 72 * HOUR;
  const due = endNoon > now.getTime() ? Math.min(endNoon, inThreeDays) : now.getTime() + 24 * HOUR;
  return {
    holds: true,
    task: {
      title: "Authorization running out",
      description: `Authorization ${a.referenceNumber}: ${reasons.join("; ")}. Ask the payer for more visits or a new authorization.`,
      patientId: a.patientId,
      clinicId: patientCase.clinicId,
      assigneeUserId: patientCase.therapistIds[0] ?? null,
      priority: view.remainingVisits === 0 || ended ? "high" : "normal",
      dueAt: new Date(due),
    },
  };
}

/** document_quarantined: an upload the malware scan found something in. Deleting (or purging) it resolves the task. */
export function quarantineVerdict(
  document: { status: string; patientId: number; clinicId: number | null; uploadedByUserId: number | null } | undefined,
  now: Date,
): RuleVerdict {
  if (document?.status === "quarantined")
    return {
      holds: true,
      task: {
        title: "Review a quarantined document",
        description:
          "The malware scan found something in an upload. It is never served; tell the sender and delete it.",
        patientId: document.patientId,
        clinicId: document.clinicId,
        assigneeUserId: document.uploadedByUserId,
        priority: "high",
        dueAt: new Date(now.getTime() + 24 * HOUR),
      },
    };
  return { holds: false, trigger: "resolve", resolution: "document_deleted" };
}

/**
 * plan_certification: the plan of care of an open case billed to Medicare Part B needs its physician's or NPP's
 * certification within 10 days, or recertification within 10 days of its period's end, or either has lapsed
 * (medicare/plan-certification.ts). Certifying, or a re-evaluation's new period not yet due, resolves it.
 */
export function planCertificationVerdict(
  plan: (CertifiedPeriod & { patientId: number }) | undefined,
  patientCase: Pick<PatientCase, "treatmentStatus" | "clinicId"> | undefined,
  medicare: boolean,
  assigneeUserId: number | null,
  today: string,
  now: Date,
): RuleVerdict {
  if (!plan || !patientCase || patientCase.treatmentStatus !== "ACTIVE" || !medicare)
    return { holds: false, trigger: "withdraw", resolution: "condition_cleared" };
  const state = certificationState(plan, today);
  // Certified: resolved. A re-evaluation's new period not yet due (PENDING, uncertified): withdrawn, nothing was certified.
  if (state.status === "CERTIFIED") return { holds: false, trigger: "resolve", resolution: "certified" };
  if (state.status === "PENDING") return { holds: false, trigger: "withdraw", resolution: "new_period" };
  const lapsed = state.status === "LAPSED";
  const recert = plan.certifiedOn !== null;
  const dueNoon = Date.parse(`${state.dueDate}T12:00:00Z`);
  return {
    holds: true,
    task: {
      title: recert ? "Recertify the plan of care" : "Certify the plan of care",
      description: `${recert ? "The plan of care's certification period ends" : "The plan of care needs the physician's or NPP's certification by"} ${state.dueDate}${lapsed ? " and has lapsed" : ""}. ${recert ? "Re-evaluate, then record the new certification." : "Record it when they sign."}`,
      patientId: plan.patientId,
      clinicId: patientCase.clinicId,
      assigneeUserId,
      priority: lapsed ? "high" : "normal",
      dueAt: new Date(dueNoon > now.getTime() ? dueNoon : now.getTime() + 24 * HOUR),
    },
  };
}
