import {
  DomainError,
  isOverdue,
  parseTaskTime,
  TASK_ASSIGNEE_TYPES,
  TASK_LIMITS,
  TASK_PRIORITIES,
  TASK_RULES,
  TASK_SORTS,
  TASK_STATUSES,
  TASK_SUBJECT_TYPES,
  type Task,
  type TaskChanges,
  type TaskComment,
  type TaskListQuery,
  type TaskPriority,
  type TaskRule,
  type TaskSettings,
  type TaskStatus,
} from "@openpractice/core";
import type { FieldNames } from "../contracts/field-names.js";
import { zonelessUtc } from "../patients/v1-patient-contract.js";
import {
  boolean,
  described,
  id,
  idOrNull,
  integer,
  oneOfStrings,
  orNull,
  plainText,
  replyObject,
  textOrNull,
  zonelessTime,
  zonelessTimeOrNull,
} from "../openapi/reply-schemas.js";

/** Domain field → wire field, for validation errors. */
export const V1_TASK_FIELDS: FieldNames = {
  patientId: "patient_id",
  dueAt: "due_at",
};

const assigneeSchema = replyObject(
  {
    type: oneOfStrings(TASK_ASSIGNEE_TYPES),
    id: described(id, "provider: the doctor id (the provider's user id); staff: the staff member's id"),
  },
  { title: "V1TaskAssignee" },
);
const subjectSchema = replyObject(
  {
    type: oneOfStrings(TASK_SUBJECT_TYPES),
    id: described(plainText, "The record's id (a case as its number, a SOAP note by context id)"),
  },
  { title: "V1TaskSubject" },
);

/** A task as v1 shows it. Times are zoneless UTC, as everywhere on v1. */
export const v1TaskSchema = replyObject(
  {
    id,
    title: plainText,
    description: textOrNull,
    status: oneOfStrings(TASK_STATUSES),
    priority: oneOfStrings(TASK_PRIORITIES),
    due_at: zonelessTimeOrNull,
    overdue: described(boolean, "Past its due time while open or in progress"),
    patient_id: idOrNull,
    clinic_id: described(idOrNull, "The clinic of its subject; null: the organisation's"),
    subject: orNull(subjectSchema),
    assignee: orNull(assigneeSchema),
    origin: oneOfStrings(["person", "system"]),
    rule: described(orNull(oneOfStrings(TASK_RULES)), "The rule that raised it (origin system)"),
    created_by: replyObject({ user_id: idOrNull, client_id: textOrNull }),
    completed_at: described(zonelessTimeOrNull, "When it was done or cancelled"),
    completed_by: replyObject({ user_id: idOrNull }),
    resolution: described(
      textOrNull,
      "Why the system closed it: cosigned, returned_for_revision, note_removed, authorization_extended, condition_cleared, document_deleted",
    ),
    created_at: zonelessTime,
    updated_at: zonelessTime,
    version: described(integer, "+1 on every change; send it back as version for an optimistic update"),
  },
  {
    title: "V1Task",
    examples: [
      {
        id: 318,
        title: "Call back about the home exercise program",
        description: null,
        status: "open",
        priority: "high",
        due_at: "2026-12-01T17:00:00",
        overdue: false,
        patient_id: 7,
        clinic_id: 3,
        subject: { type: "appointment", id: "5521" },
        assignee: { type: "staff", id: 4 },
        origin: "person",
        rule: null,
        created_by: { user_id: 101, client_id: null },
        completed_at: null,
        completed_by: { user_id: null },
        resolution: null,
        created_at: "2026-11-28T09:12:40",
        updated_at: "2026-11-28T09:12:40",
        version: 1,
      },
    ],
  },
);

export function v1TaskView(t: Task, now: Date) {
  return {
    id: t.id,
    title: t.title,
    description: t.description,
    status: t.status,
    priority: t.priority,
    due_at: t.dueAt ? zonelessUtc(t.dueAt) : null,
    overdue: isOverdue(t, now),
    patient_id: t.patientId,
    clinic_id: t.clinicId,
    subject: t.subject,
    assignee: t.assignee,
    origin: t.origin,
    rule: t.rule,
    created_by: { user_id: t.createdByUserId, client_id: t.createdByClientId },
    completed_at: t.completedAt ? zonelessUtc(t.completedAt) : null,
    completed_by: { user_id: t.completedByUserId },
    resolution: t.resolution,
    created_at: zonelessUtc(t.createdAt),
    updated_at: zonelessUtc(t.updatedAt),
    version: t.version,
  };
}

export const v1TaskCommentSchema = replyObject(
  {
    id,
    task_id: id,
    body: plainText,
    author: replyObject({ user_id: idOrNull, client_id: textOrNull, name: textOrNull }),
    created_at: zonelessTime,
  },
  { title: "V1TaskComment" },
);

export const v1TaskCommentView = (c: TaskComment) => ({
  id: c.id,
  task_id: c.taskId,
  body: c.body,
  author: { user_id: c.authorUserId, client_id: c.authorClientId, name: c.authorName },
  created_at: zonelessUtc(c.createdAt),
});

/** RFC 3339 date-time, the offset optional (then UTC): the service checks the calendar day. */
const DATE_TIME_PATTERN = "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?([Zz]|[+-]\\d{2}:\\d{2})?$";

const DUE_AT = {
  type: ["string", "null"],
  pattern: DATE_TIME_PATTERN,
  maxLength: 40,
  description: "RFC 3339 date-time; without an offset it is read as UTC. null: no due time",
} as const;

const fields = {
  title: { type: "string", minLength: 1, maxLength: TASK_LIMITS.titleMax },
  description: { type: ["string", "null"], maxLength: TASK_LIMITS.descriptionMax },
  patient_id: { type: ["integer", "null"], minimum: 1, description: "The patient it is about" },
  subject: {
    type: ["object", "null"],
    additionalProperties: false,
    required: ["type", "id"],
    description: "The record it is about: a record of patient_id",
    properties: {
      type: { type: "string", enum: [...TASK_SUBJECT_TYPES] },
      id: {
        type: ["string", "integer"],
        minimum: 1,
        maxLength: 64,
        pattern: "^[A-Za-z0-9_-]+$",
        description: "The record's id: 12, SERVICE_CASE_12 for a case, a SOAP note's context id",
      },
    },
  },
  assignee: {
    type: ["object", "null"],
    additionalProperties: false,
    required: ["type", "id"],
    description: "A provider (by doctor id) or a staff member; null: unassigned",
    properties: {
      type: { type: "string", enum: [...TASK_ASSIGNEE_TYPES] },
      id: { type: "integer", minimum: 1 },
    },
  },
  priority: { type: "string", enum: [...TASK_PRIORITIES], default: "normal" },
  due_at: DUE_AT,
} as const;

/** POST /apis/v1/tasks. */
export const v1TaskCreateSchema = {
  type: "object",
  additionalProperties: false,
  required: ["title"],
  properties: fields,
} as const;

/** POST /apis/v1/tasks/{task_id}: a partial update; status names the status asked for (the table's trigger). */
export const v1TaskUpdateSchema = {
  type: "object",
  additionalProperties: false,
  minProperties: 1,
  properties: {
    ...fields,
    priority: { type: "string", enum: [...TASK_PRIORITIES] },
    status: {
      type: "string",
      enum: [...TASK_STATUSES],
      description: "in_progress: start; done: complete; cancelled: cancel; open: reopen a closed task",
    },
    version: {
      type: "integer",
      minimum: 1,
      description: "The version read: refused with VERSION_CONFLICT if it moved",
    },
  },
} as const;

type TaskBody = {
  title?: string;
  description?: string | null;
  patient_id?: number | null;
  subject?: { type: string; id: string | number } | null;
  assignee?: { type: string; id: number } | null;
  priority?: string;
  due_at?: string | null;
  status?: string;
  version?: number;
};

/** A body's fields in the service's names (absent stays absent). */
export function taskInputFromBody(body: TaskBody): TaskChanges & { version?: number } {
  const out: TaskChanges & { version?: number } = {};
  if (body.title !== undefined) out.title = body.title;
  if (body.description !== undefined) out.description = body.description;
  if (body.patient_id !== undefined) out.patientId = body.patient_id;
  if (body.subject !== undefined)
    out.subject = body.subject === null ? null : { type: body.subject.type, id: String(body.subject.id) };
  if (body.assignee !== undefined) out.assignee = body.assignee;
  if (body.priority !== undefined) out.priority = body.priority;
  if (body.due_at !== undefined) out.dueAt = body.due_at;
  if (body.status !== undefined) out.status = body.status;
  if (body.version !== undefined) out.version = body.version;
  return out;
}

const commaList = (values: readonly string[]) => `^(${values.join("|")})(,(${values.join("|")}))*$`;
const dateTimeParameter = (description: string) =>
  ({ type: "string", maxLength: 40, pattern: DATE_TIME_PATTERN, description }) as const;

export const v1TaskListQuery = {
  type: "object",
  additionalProperties: false,
  properties: {
    assignee: {
      type: "string",
      pattern: "^((provider|staff):[1-9][0-9]{0,14}|none)$",
      description: "provider:{doctor_id}, staff:{staff_id}, or none (unassigned)",
    },
    patient_id: { type: "integer", minimum: 1 },
    status: { type: "string", pattern: commaList(TASK_STATUSES), description: "One status or a comma list" },
    priority: { type: "string", pattern: commaList(TASK_PRIORITIES), description: "One priority or a comma list" },
    due_before: dateTimeParameter("Due strictly before (tasks without a due time never match)"),
    due_after: dateTimeParameter("Due at or after"),
    subject_type: { type: "string", enum: [...TASK_SUBJECT_TYPES] },
    subject_id: { type: "string", maxLength: 64, pattern: "^[A-Za-z0-9_-]+$", description: "With subject_type" },
    origin: { type: "string", enum: ["person", "system"], description: "Created by a person or by the system" },
    rule: { type: "string", enum: [...TASK_RULES] },
    sort: {
      type: "string",
      enum: [...TASK_SORTS],
      default: "due_at",
      description: "due_at (no due time last), priority (urgent first), created_at; - for descending; ties by id",
    },
    page: { type: "integer", minimum: 1, default: 1 },
    size: { type: "integer", minimum: 1, maximum: TASK_LIMITS.maxPageSize, default: TASK_LIMITS.defaultPageSize },
  },
} as const;

type ListQuery = {
  assignee?: string;
  patient_id?: number;
  status?: string;
  priority?: string;
  due_before?: string;
  due_after?: string;
  subject_type?: string;
  subject_id?: string;
  origin?: "person" | "system";
  rule?: string;
  sort?: string;
  page?: number;
  size?: number;
};

function timeParameter(name: string, value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const parsed = parseTaskTime(value);
  if (!parsed) throw DomainError.invalidParameter(name, value, "must be an RFC 3339 date-time");
  return parsed;
}

export function taskListQueryOf(q: ListQuery): TaskListQuery {
  if (q.subject_id !== undefined && q.subject_type === undefined)
    throw DomainError.invalidParameter("subject_id", q.subject_id, "needs subject_type");
  const [type, assigneeId] = (q.assignee ?? "").split(":");
  return {
    assignee:
      q.assignee === undefined
        ? undefined
        : q.assignee === "none"
          ? "none"
          : { type: type as "provider" | "staff", id: Number(assigneeId) },
    patientId: q.patient_id,
    statuses: q.status?.split(",") as TaskStatus[] | undefined,
    priorities: q.priority?.split(",") as TaskPriority[] | undefined,
    dueBefore: timeParameter("due_before", q.due_before),
    dueAfter: timeParameter("due_after", q.due_after),
    subject:
      q.subject_type === undefined
        ? undefined
        : { type: q.subject_type as (typeof TASK_SUBJECT_TYPES)[number], id: q.subject_id },
    origin: q.origin,
    rule: q.rule as TaskRule | undefined,
    sort: q.sort as TaskListQuery["sort"],
    page: q.page,
    size: q.size,
  };
}

export const v1TaskCommentCreateSchema = {
  type: "object",
  additionalProperties: false,
  required: ["body"],
  properties: { body: { type: "string", minLength: 1, maxLength: TASK_LIMITS.commentMax } },
} as const;

export const v1PageQuery = {
  type: "object",
  additionalProperties: false,
  properties: {
    page: { type: "integer", minimum: 1, default: 1 },
    size: { type: "integer", minimum: 1, maximum: TASK_LIMITS.maxPageSize, default: TASK_LIMITS.defaultPageSize },
  },
} as const;

export const v1TaskSettingsSchema = replyObject(
  {
    rules: replyObject(Object.fromEntries(TASK_RULES.map((rule) => [rule, replyObject({ enabled: boolean })])), {
      title: "V1TaskRuleSwitches",
    }),
  },
  { title: "V1TaskSettings" },
);

export const v1TaskSettingsView = (s: TaskSettings) => ({
  rules: Object.fromEntries(TASK_RULES.map((rule) => [rule, { enabled: !s.disabledRules.includes(rule) }])),
});

const RULE_SWITCH = {
  type: "object",
  additionalProperties: false,
  required: ["enabled"],
  properties: { enabled: { type: "boolean" } },
} as const;

export const v1TaskSettingsUpdateSchema = {
  type: "object",
  additionalProperties: false,
  required: ["rules"],
  properties: {
    rules: {
      type: "object",
      additionalProperties: false,
      minProperties: 1,
      properties: Object.fromEntries(TASK_RULES.map((rule) => [rule, RULE_SWITCH])),
    },
  },
} as const;
