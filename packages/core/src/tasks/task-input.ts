import { DomainError, type ValidationIssue } from "../kernel/domain-error.js";
import { isPositiveId } from "../kernel/rule-checks.js";
import {
  TASK_ASSIGNEE_TYPES,
  TASK_LIMITS,
  TASK_PRIORITIES,
  TASK_STATUSES,
  TASK_SUBJECT_TYPES,
  type TaskAssignee,
  type TaskChanges,
  type TaskDraft,
  type TaskPriority,
  type TaskStatus,
  type TaskSubject,
} from "./task.js";

/** A draft or changes checked: every field of the right type, absent fields undefined, cleared ones null. */
export interface CheckedTaskInput {
  title?: string;
  description?: string | null;
  patientId?: number | null;
  subject?: TaskSubject | null;
  assignee?: TaskAssignee | null;
  priority?: TaskPriority;
  dueAt?: Date | null;
  status?: TaskStatus;
}

// RFC 3339 date-time; a value without an offset is read as UTC (v1's times are zoneless UTC).
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?$/i;

/** A due time as sent: an RFC 3339 date-time (zoneless: UTC) or a Date; undefined when it is neither. */
export function parseTaskTime(value: unknown): Date | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value;
  if (typeof value !== "string" || !DATE_TIME.test(value)) return undefined;
  const zoned = /(Z|[+-]\d{2}:\d{2})$/i.test(value) ? value : `${value}Z`;
  const parsed = new Date(zoned);
  if (Number.isNaN(parsed.getTime())) return undefined;
  // Date accepts 2026-02-31 as March 3: the calendar day must survive the round trip.
  const day = value.slice(0, 10);
  return new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) === day ? parsed : undefined;
}

const isText = (v: unknown, max: number, min = 0): v is string =>
  typeof v === "string" && v.trim().length >= min && v.length <= max;

function checkSubject(issues: ValidationIssue[], value: unknown): TaskSubject | null | undefined {
  if (value === undefined || value === null) return value;
  const s = value as { type?: unknown; id?: unknown };
  if (typeof value !== "object" || Array.isArray(value)) {
    issues.push({ field: "subject", reason: "must be an object {type, id}", value });
    return undefined;
  }
  if (!(TASK_SUBJECT_TYPES as readonly unknown[]).includes(s.type))
    issues.push({ field: "subject.type", reason: `must be one of ${TASK_SUBJECT_TYPES.join(", ")}`, value: s.type });
  const id =
    typeof s.id === "number" && isPositiveId(s.id)
      ? String(s.id)
      : typeof s.id === "string" && /^[A-Za-z0-9_-]{1,64}$/.test(s.id)
        ? s.id
        : undefined;
  if (id === undefined) issues.push({ field: "subject.id", reason: "must be the record's id", value: s.id });
  return id === undefined ? undefined : { type: s.type as TaskSubject["type"], id };
}

function checkAssignee(issues: ValidationIssue[], value: unknown): TaskAssignee | null | undefined {
  if (value === undefined || value === null) return value;
  const a = value as { type?: unknown; id?: unknown };
  if (typeof value !== "object" || Array.isArray(value)) {
    issues.push({ field: "assignee", reason: "must be an object {type, id}", value });
    return undefined;
  }
  if (!(TASK_ASSIGNEE_TYPES as readonly unknown[]).includes(a.type))
    issues.push({ field: "assignee.type", reason: `must be one of ${TASK_ASSIGNEE_TYPES.join(", ")}`, value: a.type });
  if (!isPositiveId(a.id))
    issues.push({
      field: "assignee.id",
      reason: "must be a positive integer (a provider's doctor id, or a staff member's id)",
      value: a.id,
    });
  return { type: a.type as TaskAssignee["type"], id: a.id as number };
}

/**
 * Checks a new task (`creating`) or a partial update, naming every bad field (VALIDATION_FAILED): the HTTP layer's
 * schema checks the same, this is for embedders calling the service directly.
 */
export function checkTaskInput(input: TaskDraft & TaskChanges, creating: boolean): CheckedTaskInput {
  const issues: ValidationIssue[] = [];
  const out: CheckedTaskInput = {};
  if (input.title !== undefined || creating) {
    if (isText(input.title, TASK_LIMITS.titleMax, 1)) out.title = input.title.trim();
    else
      issues.push({
        field: "title",
        reason: `is required: 1 to ${TASK_LIMITS.titleMax} characters`,
        value: input.title,
      });
  }
  if (input.description !== undefined) {
    if (input.description === null || isText(input.description, TASK_LIMITS.descriptionMax))
      out.description = input.description === null ? null : input.description.trim() || null;
    else
      issues.push({ field: "description", reason: `must be at most ${TASK_LIMITS.descriptionMax} characters or null` });
  }
  if (input.patientId !== undefined) {
    if (input.patientId === null || isPositiveId(input.patientId)) out.patientId = input.patientId;
    else issues.push({ field: "patientId", reason: "must be a patient id or null", value: input.patientId });
  }
  const subject = checkSubject(issues, input.subject);
  if (subject !== undefined) out.subject = subject;
  const assignee = checkAssignee(issues, input.assignee);
  if (assignee !== undefined) out.assignee = assignee;
  if (input.priority !== undefined) {
    if ((TASK_PRIORITIES as readonly unknown[]).includes(input.priority)) out.priority = input.priority as TaskPriority;
    else
      issues.push({
        field: "priority",
        reason: `must be one of ${TASK_PRIORITIES.join(", ")}`,
        value: input.priority,
      });
  }
  if (input.dueAt !== undefined) {
    const due = input.dueAt === null ? null : parseTaskTime(input.dueAt);
    if (due === undefined)
      issues.push({
        field: "dueAt",
        reason: "must be an RFC 3339 date-time (2026-12-01T17:00:00Z; without an offset, UTC) or null",
        value: input.dueAt,
      });
    else out.dueAt = due;
  }
  if (input.status !== undefined) {
    if ((TASK_STATUSES as readonly unknown[]).includes(input.status)) out.status = input.status as TaskStatus;
    else issues.push({ field: "status", reason: `must be one of ${TASK_STATUSES.join(", ")}`, value: input.status });
  }
  if (creating && input.status !== undefined && input.status !== "open")
    issues.push({ field: "status", reason: "a new task is open", value: input.status });
  const patientOf = out.patientId === undefined ? undefined : out.patientId;
  if (creating && out.subject && patientOf == null)
    issues.push({ field: "patientId", reason: "is required with a subject: the patient the record belongs to" });
  if (issues.length > 0) throw DomainError.validation(issues);
  return out;
}
