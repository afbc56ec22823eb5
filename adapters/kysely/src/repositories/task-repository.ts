import {
  NO_DUE_ORDER,
  type Task,
  type TaskComment,
  type TaskListFilter,
  type TaskPriority,
  type TaskRepository,
  type TaskRule,
  type TaskSettings,
  type TaskStatus,
  type TaskAssigneeType,
  type TaskSubjectType,
  priorityRank,
} from "@openpractice/core";
import type { Kysely, Selectable, SelectQueryBuilder } from "kysely";
import { readLatest } from "../contention.js";
import { fromDbTime, toDbTime } from "../db-time.js";
import { insertIgnoringDuplicate, insertIgnoringDuplicateReturningId } from "../insert-ignoring-duplicate.js";
import type { Database } from "../schema.js";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";
import type { TaskCommentsTable, TasksTable } from "../tables/tasks.js";
import { insertReturningId } from "./insert-returning-id.js";

const time = (d: Date | null) => (d ? toDbTime(d) : null);
const timeOf = (s: string | null) => (s === null ? null : fromDbTime(s));
const nullableNumber = (v: number | string | bigint | null) => (v === null ? null : Number(v));

/** The columns an update may change: all but id, organisation, origin, the creator and created_at. */
function mutableColumns(t: Omit<Task, "id">) {
  return {
    title: t.title,
    description: t.description,
    patient_id: t.patientId,
    subject_type: t.subject?.type ?? null,
    subject_id: t.subject?.id ?? null,
    clinic_id: t.clinicId,
    assignee_type: t.assignee?.type ?? null,
    assignee_id: t.assignee?.id ?? null,
    assignment_seq: t.assignmentSeq,
    priority: t.priority,
    priority_rank: priorityRank(t.priority),
    due_at: time(t.dueAt),
    due_order: t.dueAt ? toDbTime(t.dueAt) : NO_DUE_ORDER,
    status: t.status,
    rule: t.rule,
    rule_key: t.ruleKey,
    completed_at: time(t.completedAt),
    completed_by_user_id: t.completedByUserId,
    resolution: t.resolution,
    overdue_at: time(t.overdueAt),
    overdue_notified_for: time(t.overdueNotifiedFor),
    updated_at: toDbTime(t.updatedAt),
  };
}

const allColumns = (t: Omit<Task, "id">) => ({
  ...mutableColumns(t),
  organisation_id: t.organisationId,
  origin: t.origin,
  created_by_user_id: t.createdByUserId,
  created_by_client_id: t.createdByClientId,
  version: t.version,
  created_at: toDbTime(t.createdAt),
});

const toTask = (r: Selectable<TasksTable>): Task => ({
  id: Number(r.id),
  organisationId: Number(r.organisation_id),
  title: r.title,
  description: r.description,
  patientId: nullableNumber(r.patient_id),
  subject:
    r.subject_type === null || r.subject_id === null
      ? null
      : { type: r.subject_type as TaskSubjectType, id: r.subject_id },
  clinicId: nullableNumber(r.clinic_id),
  assignee:
    r.assignee_type === null || r.assignee_id === null
      ? null
      : { type: r.assignee_type as TaskAssigneeType, id: Number(r.assignee_id) },
  assignmentSeq: Number(r.assignment_seq),
  priority: r.priority as TaskPriority,
  dueAt: timeOf(r.due_at),
  status: r.status as TaskStatus,
  origin: r.origin as Task["origin"],
  rule: r.rule as TaskRule | null,
  ruleKey: r.rule_key,
  createdByUserId: nullableNumber(r.created_by_user_id),
  createdByClientId: r.created_by_client_id,
  completedAt: timeOf(r.completed_at),
  completedByUserId: nullableNumber(r.completed_by_user_id),
  resolution: r.resolution,
  overdueAt: timeOf(r.overdue_at),
  overdueNotifiedFor: timeOf(r.overdue_notified_for),
  version: Number(r.version),
  createdAt: fromDbTime(r.created_at),
  updatedAt: fromDbTime(r.updated_at),
});

const toComment = (r: Selectable<TaskCommentsTable>): TaskComment => ({
  id: Number(r.id),
  organisationId: Number(r.organisation_id),
  taskId: Number(r.task_id),
  body: r.body,
  authorUserId: nullableNumber(r.author_user_id),
  authorClientId: r.author_client_id,
  authorName: r.author_name,
  createdAt: fromDbTime(r.created_at),
});

type TaskQuery = SelectQueryBuilder<Database, "tasks", object>;

/** The list's filters on the organisation's tasks (the page and its count share them). */
function filtered(q: TaskQuery, f: TaskListFilter): TaskQuery {
  const assignee = f.assignee;
  if (assignee === "none") q = q.where("assignee_type", "is", null);
  else if (assignee) q = q.where("assignee_type", "=", assignee.type).where("assignee_id", "=", assignee.id);
  if (f.patientId !== undefined) q = q.where("patient_id", "=", f.patientId);
  if (f.statuses?.length) q = q.where("status", "in", [...f.statuses]);
  if (f.priorities?.length) q = q.where("priority", "in", [...f.priorities]);
  // On due_order, the column the indexes carry; a task without a due time (due_order NO_DUE_ORDER) matches neither.
  if (f.dueBefore) q = q.where("due_order", "<", toDbTime(f.dueBefore)).where("due_at", "is not", null);
  if (f.dueAfter) q = q.where("due_order", ">=", toDbTime(f.dueAfter)).where("due_at", "is not", null);
  if (f.subjectType !== undefined) q = q.where("subject_type", "=", f.subjectType);
  if (f.subjectId !== undefined) q = q.where("subject_id", "=", f.subjectId);
  if (f.origin !== undefined) q = q.where("origin", "=", f.origin);
  if (f.rule !== undefined) q = q.where("rule", "=", f.rule);
  const clinics = f.clinicIds;
  if (clinics)
    q =
      clinics.length === 0
        ? q.where("clinic_id", "is", null)
        : q.where((eb) => eb.or([eb("clinic_id", "is", null), eb("clinic_id", "in", [...clinics])]));
  return q;
}

/** The list's order: each sort's columns, ties by id in the sort's direction. */
function sorted<O>(q: SelectQueryBuilder<Database, "tasks", O>, sort: TaskListFilter["sort"]) {
  switch (sort) {
    case "due_at":
      return q.orderBy("due_order", "asc").orderBy("id", "asc");
    case "-due_at":
      return q.orderBy("due_order", "desc").orderBy("id", "desc");
    case "priority":
      return q.orderBy("priority_rank", "asc").orderBy("due_order", "asc").orderBy("id", "asc");
    case "-priority":
      return q.orderBy("priority_rank", "desc").orderBy("due_order", "desc").orderBy("id", "desc");
    case "created_at":
      return q.orderBy("created_at", "asc").orderBy("id", "asc");
    case "-created_at":
      return q.orderBy("created_at", "desc").orderBy("id", "desc");
  }
}

export class KyselyTaskRepository implements TaskRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly profile: SqlDialectProfile,
  ) {}

  private byId(organisationId: number, id: number) {
    return this.db.selectFrom("tasks").selectAll().where("organisation_id", "=", organisationId).where("id", "=", id);
  }

  async insert(record: Omit<Task, "id">): Promise<Task> {
    return { ...record, id: await insertReturningId(this.db, this.profile, "tasks", allColumns(record)) };
  }

  async insertRaised(record: Omit<Task, "id">): Promise<Task | undefined> {
    const id = await insertIgnoringDuplicateReturningId(this.db, this.profile, "tasks", allColumns(record), [
      "organisation_id",
      "rule_key",
    ]);
    return id === undefined ? undefined : { ...record, id };
  }

  async findById(organisationId: number, id: number): Promise<Task | undefined> {
    const row = await this.byId(organisationId, id).executeTakeFirst();
    return row ? toTask(row) : undefined;
  }

  async findLatest(organisationId: number, id: number): Promise<Task | undefined> {
    const row = await readLatest(this.profile, this.byId(organisationId, id)).executeTakeFirst();
    return row ? toTask(row) : undefined;
  }

  async findByRuleKey(organisationId: number, ruleKey: string): Promise<Task | undefined> {
    const row = await this.db
      .selectFrom("tasks")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("rule_key", "=", ruleKey)
      .executeTakeFirst();
    return row ? toTask(row) : undefined;
  }

  async updateIfVersion(record: Task): Promise<boolean> {
    const result = await this.db
      .updateTable("tasks")
      .set({ ...mutableColumns(record), version: record.version + 1 })
      .where("organisation_id", "=", record.organisationId)
      .where("id", "=", record.id)
      .where("version", "=", record.version)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async list(organisationId: number, filter: TaskListFilter): Promise<{ tasks: Task[]; total: number }> {
    const q = filtered(this.db.selectFrom("tasks").where("organisation_id", "=", organisationId), filter);
    const [rows, counted] = await Promise.all([
      sorted(q.selectAll(), filter.sort).limit(filter.limit).offset(filter.offset).execute(),
      q.select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow(),
    ]);
    return { tasks: rows.map(toTask), total: Number(counted.n) };
  }

  async openOfRule(organisationId: number, rule: TaskRule, afterId: number, limit: number): Promise<Task[]> {
    const rows = await this.db
      .selectFrom("tasks")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("rule", "=", rule)
      .where("status", "in", ["open", "in_progress"])
      .where("id", ">", afterId)
      .orderBy("id")
      .limit(limit)
      .execute();
    return rows.map(toTask);
  }

  async dueOverdue(now: Date, limit: number): Promise<Task[]> {
    const rows = await this.db
      .selectFrom("tasks")
      .selectAll()
      .where("overdue_at", "<=", toDbTime(now))
      .orderBy("overdue_at")
      .orderBy("id")
      .limit(limit)
      .execute();
    return rows.map(toTask);
  }

  async insertComment(record: Omit<TaskComment, "id">): Promise<TaskComment> {
    const id = await insertReturningId(this.db, this.profile, "task_comments", {
      organisation_id: record.organisationId,
      task_id: record.taskId,
      body: record.body,
      author_user_id: record.authorUserId,
      author_client_id: record.authorClientId,
      author_name: record.authorName,
      created_at: toDbTime(record.createdAt),
    });
    return { ...record, id };
  }

  async listComments(
    organisationId: number,
    taskId: number,
    window: { limit: number; offset: number },
  ): Promise<{ comments: TaskComment[]; total: number }> {
    const q = this.db
      .selectFrom("task_comments")
      .where("organisation_id", "=", organisationId)
      .where("task_id", "=", taskId);
    const [rows, counted] = await Promise.all([
      q.selectAll().orderBy("created_at").orderBy("id").limit(window.limit).offset(window.offset).execute(),
      q.select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow(),
    ]);
    return { comments: rows.map(toComment), total: Number(counted.n) };
  }

  async settingsOf(organisationId: number): Promise<TaskSettings | undefined> {
    const row = await this.db
      .selectFrom("task_settings")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .executeTakeFirst();
    return row ? { disabledRules: JSON.parse(row.disabled_rules) as TaskRule[] } : undefined;
  }

  async saveSettings(organisationId: number, settings: TaskSettings, now: Date): Promise<void> {
    const values = { disabled_rules: JSON.stringify(settings.disabledRules), updated_at: toDbTime(now) };
    // Insert-if-absent, then update: two first saves at once end with one row (the later values), never a key error.
    const inserted = await insertIgnoringDuplicate(
      this.db,
      this.profile,
      "task_settings",
      { organisation_id: organisationId, ...values },
      ["organisation_id"],
    );
    if (!inserted)
      await this.db.updateTable("task_settings").set(values).where("organisation_id", "=", organisationId).execute();
  }
}
