/** Where a task stands: open → in_progress → done; open or in_progress → cancelled; a closed one reopens. */
export const TASK_STATUSES = ["open", "in_progress", "done", "cancelled"] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
export const TASK_PRIORITIES = ["urgent", "high", "normal", "low"] as const;
export type TaskPriority = (typeof TASK_PRIORITIES)[number];
/** What a task can be about: a record of its patient. */
export const TASK_SUBJECT_TYPES = [
  "appointment",
  "case",
  "soap_note",
  "document",
  "authorization",
  "coverage",
] as const;
export type TaskSubjectType = (typeof TASK_SUBJECT_TYPES)[number];
/** Who a task is assigned to: a provider (by v1 doctor id, the provider's user id) or a staff member (by id). */
export const TASK_ASSIGNEE_TYPES = ["provider", "staff"] as const;
export type TaskAssigneeType = (typeof TASK_ASSIGNEE_TYPES)[number];
/** The rules by which the system raises tasks (task-raising-rules.ts). */
export const TASK_RULES = ["soap_cosign", "authorization_low", "document_quarantined", "plan_certification"] as const;
export type TaskRule = (typeof TASK_RULES)[number];
export const TASK_SORTS = ["due_at", "-due_at", "priority", "-priority", "created_at", "-created_at"] as const;
export type TaskSort = (typeof TASK_SORTS)[number];

export const TASK_LIMITS = Object.freeze({
  titleMax: 200,
  descriptionMax: 4000,
  commentMax: 4000,
  defaultPageSize: 20,
  maxPageSize: 100,
});

/** Sorts a task without a due time after every dated one, on every engine (no NULLS LAST needed). */
export const NO_DUE_ORDER = "9999-12-31T23:59:59.999Z";

/** urgent first: the rank the priority sort orders by. */
export const priorityRank = (p: TaskPriority): number => TASK_PRIORITIES.indexOf(p);

export interface TaskSubject {
  type: TaskSubjectType;
  /** A decimal id, or a SOAP note's context id. */
  id: string;
}

export interface TaskAssignee {
  type: TaskAssigneeType;
  id: number;
}

export interface Task {
  id: number;
  organisationId: number;
  title: string;
  description: string | null;
  patientId: number | null;
  subject: TaskSubject | null;
  /** The clinic of its subject (for clinic-restricted tokens); null: the organisation's. */
  clinicId: number | null;
  assignee: TaskAssignee | null;
  /** +1 each time the task is given to a person: names the assignment's notification. */
  assignmentSeq: number;
  priority: TaskPriority;
  dueAt: Date | null;
  status: TaskStatus;
  origin: "person" | "system";
  rule: TaskRule | null;
  /** `<rule>:<subject type>:<subject id>` while the rule's condition holds; one task per key and organisation. */
  ruleKey: string | null;
  createdByUserId: number | null;
  createdByClientId: string | null;
  completedAt: Date | null;
  completedByUserId: number | null;
  /** Closed by the system: why (cosigned, authorization_extended, condition_cleared, document_deleted). */
  resolution: string | null;
  /** The due time still owed an overdue notice; null once sent, or when there is none to send. */
  overdueAt: Date | null;
  /** The due time the last overdue notice was for (so reopening does not send it again). */
  overdueNotifiedFor: Date | null;
  /** Compare-and-set counter: +1 on every write. */
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface TaskComment {
  id: number;
  organisationId: number;
  taskId: number;
  body: string;
  authorUserId: number | null;
  authorClientId: string | null;
  authorName: string | null;
  createdAt: Date;
}

/** Each system rule's switch, per organisation (every rule is on until turned off). */
export interface TaskSettings {
  disabledRules: TaskRule[];
}

export const DEFAULT_TASK_SETTINGS: TaskSettings = Object.freeze({ disabledRules: [] }) as TaskSettings;

/** A new task as a caller sends it (the HTTP layer has mapped wire names). */
export interface TaskDraft {
  title?: unknown;
  description?: unknown;
  patientId?: unknown;
  subject?: unknown;
  assignee?: unknown;
  priority?: unknown;
  dueAt?: unknown;
}

/** A partial update: omitted fields stay; null clears description, due time, assignee (and patient, subject). */
export interface TaskChanges extends TaskDraft {
  status?: unknown;
}

export interface TaskListQuery {
  /** `none`: unassigned tasks. */
  assignee?: TaskAssignee | "none" | undefined;
  patientId?: number | undefined;
  statuses?: TaskStatus[] | undefined;
  priorities?: TaskPriority[] | undefined;
  dueBefore?: Date | undefined;
  dueAfter?: Date | undefined;
  subject?: { type: TaskSubjectType; id?: string | undefined } | undefined;
  origin?: "person" | "system" | undefined;
  rule?: TaskRule | undefined;
  sort?: TaskSort | undefined;
  page?: number | undefined;
  size?: number | undefined;
}

/** A task as reads show it: the record, and whether it is past due while still open. */
export const isOverdue = (task: Task, now: Date): boolean =>
  task.dueAt !== null && (task.status === "open" || task.status === "in_progress") && task.dueAt <= now;
