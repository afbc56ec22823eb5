import { clinicAccess } from "../auth/clinic-access.js";
import type { Principal } from "../auth/principal.js";
import { noteAuditedResource } from "../audit/audit-scope.js";
import type { Clock } from "../kernel/clock.js";
import { DomainError, type ValidationIssue } from "../kernel/domain-error.js";
import type { Ids } from "../kernel/ids.js";
import { toPageWindow } from "../kernel/paging.js";
import { parseServiceCaseId } from "../kernel/service-case-id.js";
import type { Storage } from "../kernel/storage.js";
import { systemError } from "../kernel/system-errors.js";
import { ensureOrganisation } from "../organisations/ensure-organisation.js";
import {
  DEFAULT_TASK_SETTINGS,
  TASK_LIMITS,
  TASK_RULES,
  type Task,
  type TaskAssignee,
  type TaskChanges,
  type TaskComment,
  type TaskDraft,
  type TaskListQuery,
  type TaskRule,
  type TaskSettings,
  type TaskSubject,
} from "./task.js";
import { taskError } from "./task-errors.js";
import { taskEvent } from "./task-events.js";
import { checkTaskInput, type CheckedTaskInput } from "./task-input.js";
import { notifyAssignee } from "./task-notifications.js";
import { allowedTaskActions, taskTransition, TRIGGER_FOR_STATUS } from "./task-status-transitions.js";
import { applyTaskTransition, eventOf, overdueOwed } from "./task-transition-effects.js";
import type { TaskServiceRepositories } from "./tasks-service-repositories.js";

export interface TaskServiceDeps {
  storage: Storage<TaskServiceRepositories>;
  clock: Clock;
  ids: Ids;
}

export const taskNotFound = (id: unknown) =>
  taskError("TASK_NOT_FOUND", "Task not found in this organisation", { task_id: id });

/** A compare-and-set lost to a concurrent write whose outcome leaves this one still valid: run it again. */
class LostRace extends Error {}

const CAS_ATTEMPTS = 3;

/** Where a task's subject points: the record checked, the patient it belongs to, the clinic it is at. */
interface ResolvedSubject {
  subject: TaskSubject;
  patientId: number;
  clinicId: number | null;
}

/**
 * Tasks on v1 (spec 9.4): created and worked by people, raised and closed by the system's rules
 * (task-rule-service.ts). Every write is one transaction with its event and, on assignment, the assignee's inbox
 * entry and push; status changes follow the table in task-status-transitions.ts and are compare-and-set on the
 * row's version, so of two concurrent completions one wins and the other is refused with the current status.
 */
export class TaskService {
  constructor(private readonly deps: TaskServiceDeps) {}

  async create(principal: Principal, draft: TaskDraft): Promise<Task> {
    const input = checkTaskInput(draft, true);
    const now = this.deps.clock.now();
    const organisationId = principal.organisationId;
    return this.deps.storage.transaction(async (tx) => {
      await ensureOrganisation(tx, organisationId, now);
      const issues: ValidationIssue[] = [];
      const where = await this.checkPatientAndSubject(tx, principal, input.patientId ?? null, input.subject, issues);
      if (input.assignee) await this.checkAssignee(tx, organisationId, input.assignee, issues);
      if (issues.length > 0) throw DomainError.unknownReference(issues);
      const dueAt = input.dueAt ?? null;
      const task = await tx.tasks.insert({
        organisationId,
        title: input.title as string,
        description: input.description ?? null,
        patientId: input.patientId ?? null,
        subject: where?.subject ?? null,
        clinicId: where?.clinicId ?? null,
        assignee: input.assignee ?? null,
        assignmentSeq: input.assignee ? 1 : 0,
        priority: input.priority ?? "normal",
        dueAt,
        status: "open",
        origin: "person",
        rule: null,
        ruleKey: null,
        createdByUserId: principal.userId,
        createdByClientId: principal.clientId ?? null,
        completedAt: null,
        completedByUserId: null,
        resolution: null,
        overdueAt: input.assignee ? dueAt : null,
        overdueNotifiedFor: null,
        version: 1,
        createdAt: now,
        updatedAt: now,
      });
      noteAuditedResource(task.id);
      await tx.outbox.append(taskEvent("task.created", { organisation_id: organisationId, task_id: task.id }, now));
      if (task.assignee && !isSelf(principal, task.assignee))
        await notifyAssignee(tx, this.deps.ids, task, "assigned", now);
      return task;
    });
  }

  async get(principal: Principal, id: number): Promise<Task> {
    return this.visible(this.deps.storage.repositories, principal, id);
  }

  async list(
    principal: Principal,
    query: TaskListQuery,
  ): Promise<{ tasks: Task[]; total: number; page: number; size: number }> {
    const window = toPageWindow(query.page, query.size, {
      defaultSize: TASK_LIMITS.defaultPageSize,
      maxSize: TASK_LIMITS.maxPageSize,
    });
    if (query.dueAfter && query.dueBefore && query.dueAfter > query.dueBefore)
      throw DomainError.invalidParameter("due_before", query.dueBefore.toISOString(), "must not be before due_after");
    const found = await this.deps.storage.repositories.tasks.list(principal.organisationId, {
      assignee: query.assignee,
      patientId: query.patientId,
      statuses: query.statuses,
      priorities: query.priorities,
      dueBefore: query.dueBefore,
      dueAfter: query.dueAfter,
      subjectType: query.subject?.type,
      subjectId: query.subject?.id === undefined ? undefined : normaliseSubjectId(query.subject.type, query.subject.id),
      origin: query.origin,
      rule: query.rule,
      clinicIds: clinicAccess(principal).only,
      sort: query.sort ?? "due_at",
      limit: window.limit,
      offset: window.offset,
    });
    return { ...found, page: window.page, size: window.size };
  }

  /**
   * A partial update. `status` names the status asked for, which the table reads as its trigger (done: complete);
   * a closed task takes only a reopen (status open), with or without other fields. `version`, when sent, must be
   * the current one (VERSION_CONFLICT otherwise): a client's own optimistic lock.
   */
  async update(principal: Principal, id: number, changes: TaskChanges & { version?: number }): Promise<Task> {
    const input = checkTaskInput(changes, false);
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.deps.storage.transaction((tx) => this.updateOnce(tx, principal, id, input, changes.version));
      } catch (error) {
        if (!(error instanceof LostRace)) throw error;
        if (attempt >= CAS_ATTEMPTS)
          throw systemError("VERSION_CONFLICT", "The task kept changing under this update; read it and try again", {
            task_id: id,
          });
      }
    }
  }

  private async updateOnce(
    tx: TaskServiceRepositories,
    principal: Principal,
    id: number,
    input: CheckedTaskInput,
    expectedVersion: number | undefined,
  ): Promise<Task> {
    const now = this.deps.clock.now();
    const current = await this.visible(tx, principal, id);
    if (expectedVersion !== undefined && expectedVersion !== current.version)
      throw systemError("VERSION_CONFLICT", "The task changed since that version was read", {
        task_id: id,
        current_version: current.version,
      });
    let next: Task = { ...current };
    let event: "task.updated" | "task.completed" | undefined;
    if (input.status !== undefined) {
      const row = this.rowFor(current, input.status);
      next = applyTaskTransition(next, row, { kind: "person", userId: principal.userId }, now);
      event = eventOf(row);
    }
    const fieldsChanged = await this.applyFields(tx, principal, current, next, input);
    if (fieldsChanged && isClosed(current) && isClosed(next))
      throw taskError("TASK_CLOSED", `The task is ${current.status}: reopen it (status open) to change it`, {
        task_id: id,
        current_status: current.status,
      });
    if (input.status === undefined && !fieldsChanged) return current;
    event ??= "task.updated";
    next.updatedAt = now;
    if (!(await tx.tasks.updateIfVersion(next))) {
      const latest = await tx.tasks.findLatest(principal.organisationId, id);
      if (!latest) throw taskNotFound(id);
      // The winner's status decides: a transition it made impossible is refused with the status it left.
      if (input.status !== undefined) this.rowFor(latest, input.status);
      throw new LostRace();
    }
    const stored = { ...next, version: current.version + 1 };
    await tx.outbox.append(taskEvent(event, { organisation_id: principal.organisationId, task_id: id }, now));
    if (stored.assignee && stored.assignmentSeq !== current.assignmentSeq && !isSelf(principal, stored.assignee))
      await notifyAssignee(tx, this.deps.ids, stored, "assigned", now);
    return stored;
  }

  /** The table's row for the status asked for, or INVALID_TRANSITION naming the current status. */
  private rowFor(task: Task, status: Task["status"]) {
    const trigger = TRIGGER_FOR_STATUS[status];
    // A system task whose condition cleared gave its rule key up: reopened, no rule would ever close it again, and
    // the condition's return would raise a second one. Refused; a person writes a task of their own.
    if (trigger === "reopen" && task.origin === "system" && task.ruleKey === null)
      throw systemError(
        "INVALID_TRANSITION",
        "The system closed this task when its condition cleared; it cannot be reopened",
        {
          task_id: task.id,
          current_status: task.status,
          action: trigger,
          allowed_actions: [],
        },
      );
    const row = taskTransition(task.status, trigger);
    if (!row || row.guards.includes("system"))
      throw systemError("INVALID_TRANSITION", `Cannot ${trigger} a task that is ${task.status}`, {
        task_id: task.id,
        current_status: task.status,
        action: trigger,
        allowed_actions: allowedTaskActions(task.status),
      });
    return row;
  }

  /** Copies the changed fields into `next` (checking references); true when any field changed. */
  private async applyFields(
    tx: TaskServiceRepositories,
    principal: Principal,
    current: Task,
    next: Task,
    input: CheckedTaskInput,
  ): Promise<boolean> {
    let changed = false;
    if (input.title !== undefined && input.title !== current.title) {
      next.title = input.title;
      changed = true;
    }
    if (input.description !== undefined && input.description !== current.description) {
      next.description = input.description;
      changed = true;
    }
    if (input.priority !== undefined && input.priority !== current.priority) {
      next.priority = input.priority;
      changed = true;
    }
    if (input.dueAt !== undefined && input.dueAt?.getTime() !== current.dueAt?.getTime()) {
      next.dueAt = input.dueAt;
      changed = true;
    }
    const issues: ValidationIssue[] = [];
    if (input.patientId !== undefined || input.subject !== undefined) {
      if (current.origin === "system")
        throw DomainError.validation([
          {
            field: input.subject !== undefined ? "subject" : "patientId",
            reason: "a task the system raised keeps its patient and subject",
          },
        ]);
      const patientId = input.patientId === undefined ? current.patientId : input.patientId;
      const subject = input.subject === undefined ? current.subject : input.subject;
      if (subject && patientId === null)
        issues.push({ field: "patientId", reason: "is required with a subject: the patient the record belongs to" });
      else {
        const where = await this.checkPatientAndSubject(tx, principal, patientId, subject, issues);
        if (
          patientId !== current.patientId ||
          JSON.stringify(where?.subject ?? null) !== JSON.stringify(current.subject)
        )
          changed = true;
        next.patientId = patientId;
        next.subject = where?.subject ?? null;
        next.clinicId = where?.clinicId ?? null;
        // A token restricted to clinics may not move a clinic's task to the whole organisation.
        if (current.clinicId !== null && next.clinicId === null && clinicAccess(principal).only)
          throw DomainError.validation([
            {
              field: "subject",
              reason: "a token restricted to clinics keeps a clinic's task at a clinic: name a record of one of them",
            },
          ]);
      }
    }
    if (input.assignee !== undefined && !sameAssignee(input.assignee, current.assignee)) {
      if (input.assignee) await this.checkAssignee(tx, principal.organisationId, input.assignee, issues);
      next.assignee = input.assignee;
      if (input.assignee) next.assignmentSeq = current.assignmentSeq + 1;
      changed = true;
    }
    if (issues.length > 0) throw DomainError.unknownReference(issues);
    next.overdueAt = overdueOwed(next);
    return changed;
  }

  async addComment(principal: Principal, id: number, body: unknown): Promise<TaskComment> {
    if (typeof body !== "string" || body.trim().length === 0 || body.length > TASK_LIMITS.commentMax)
      throw DomainError.validation([
        { field: "body", reason: `is required: 1 to ${TASK_LIMITS.commentMax} characters` },
      ]);
    const now = this.deps.clock.now();
    return this.deps.storage.transaction(async (tx) => {
      const task = await this.visible(tx, principal, id);
      const comment = await tx.tasks.insertComment({
        organisationId: principal.organisationId,
        taskId: task.id,
        body: body.trim(),
        authorUserId: principal.userId,
        authorClientId: principal.clientId ?? null,
        authorName: principal.name,
        createdAt: now,
      });
      noteAuditedResource(task.id);
      await tx.outbox.append(
        taskEvent("task.updated", { organisation_id: principal.organisationId, task_id: id }, now),
      );
      return comment;
    });
  }

  async listComments(
    principal: Principal,
    id: number,
    paging: { page?: number | undefined; size?: number | undefined },
  ): Promise<{ comments: TaskComment[]; total: number; page: number; size: number }> {
    const r = this.deps.storage.repositories;
    await this.visible(r, principal, id);
    const window = toPageWindow(paging.page, paging.size, {
      defaultSize: TASK_LIMITS.defaultPageSize,
      maxSize: TASK_LIMITS.maxPageSize,
    });
    const found = await r.tasks.listComments(principal.organisationId, id, window);
    return { ...found, page: window.page, size: window.size };
  }

  async settings(principal: Principal): Promise<TaskSettings> {
    return (await this.deps.storage.repositories.tasks.settingsOf(principal.organisationId)) ?? DEFAULT_TASK_SETTINGS;
  }

  /** Turns rules on or off (`{rule: enabled}`); rules not named keep their switch. */
  async updateSettings(principal: Principal, rules: Partial<Record<string, boolean>>): Promise<TaskSettings> {
    const issues: ValidationIssue[] = Object.entries(rules)
      .filter(([rule, on]) => !(TASK_RULES as readonly string[]).includes(rule) || typeof on !== "boolean")
      .map(([rule, on]) => ({
        field: `rules.${rule}`,
        reason: `must be a rule (${TASK_RULES.join(", ")}) set to true or false`,
        value: on,
      }));
    if (issues.length > 0) throw DomainError.validation(issues);
    const now = this.deps.clock.now();
    return this.deps.storage.transaction(async (tx) => {
      await ensureOrganisation(tx, principal.organisationId, now);
      const current = (await tx.tasks.settingsOf(principal.organisationId)) ?? DEFAULT_TASK_SETTINGS;
      const disabled = new Set<TaskRule>(current.disabledRules);
      for (const [rule, on] of Object.entries(rules)) {
        if (on) disabled.delete(rule as TaskRule);
        else disabled.add(rule as TaskRule);
      }
      const next: TaskSettings = { disabledRules: TASK_RULES.filter((r) => disabled.has(r)) };
      await tx.tasks.saveSettings(principal.organisationId, next, now);
      return next;
    });
  }

  /** A task of the organisation the caller may see (its clinic among the token's), or TASK_NOT_FOUND. */
  private async visible(r: TaskServiceRepositories, principal: Principal, id: number): Promise<Task> {
    const found = await r.tasks.findById(principal.organisationId, id);
    if (!found || (found.clinicId !== null && !clinicAccess(principal).canSee(found.clinicId))) throw taskNotFound(id);
    return found;
  }

  /** The assignee exists in the organisation and is active; an issue naming assignee.id otherwise. */
  private async checkAssignee(
    tx: TaskServiceRepositories,
    organisationId: number,
    assignee: TaskAssignee,
    issues: ValidationIssue[],
  ): Promise<void> {
    if (assignee.type === "provider") {
      const provider = await tx.organisations.findProvider(organisationId, assignee.id);
      if (!provider?.active)
        issues.push({
          field: "assignee.id",
          reason: "is not an active provider (doctor id) of this organisation",
          value: assignee.id,
        });
    } else {
      const member = await tx.staff.findById(organisationId, assignee.id);
      if (member?.status !== "active")
        issues.push({
          field: "assignee.id",
          reason: "is not an active staff member of this organisation",
          value: assignee.id,
        });
    }
  }

  /**
   * The patient exists, and the subject is a record of that patient the caller may see; returns the subject with
   * its clinic. Issues name patientId or subject.id.
   */
  private async checkPatientAndSubject(
    tx: TaskServiceRepositories,
    principal: Principal,
    patientId: number | null,
    subject: TaskSubject | null | undefined,
    issues: ValidationIssue[],
  ): Promise<ResolvedSubject | undefined> {
    if (patientId !== null && !(await tx.patients.findById(principal.organisationId, patientId))) {
      issues.push({ field: "patientId", reason: "is not a patient of this organisation", value: patientId });
      return undefined;
    }
    if (!subject) return undefined;
    const resolved = await resolveSubject(tx, principal.organisationId, subject);
    if (
      !resolved ||
      resolved.patientId !== patientId ||
      (resolved.clinicId !== null && !clinicAccess(principal).canSee(resolved.clinicId))
    ) {
      issues.push({ field: "subject.id", reason: `is not a ${subject.type} of this patient`, value: subject.id });
      return undefined;
    }
    return resolved;
  }
}

const isClosed = (task: Task) => task.status === "done" || task.status === "cancelled";

const isSelf = (principal: Principal, assignee: TaskAssignee) =>
  assignee.type === "provider" && principal.userId === assignee.id;

const sameAssignee = (a: TaskAssignee | null, b: TaskAssignee | null) =>
  a === b || (a !== null && b !== null && a.type === b.type && a.id === b.id);

/** A subject id as stored: a case's SERVICE_CASE_12 as 12; any other id as sent. */
export function normaliseSubjectId(type: TaskSubject["type"], id: string): string {
  if (type !== "case") return id;
  const caseId = parseServiceCaseId(id);
  return caseId === undefined ? id : String(caseId);
}

const numericId = (id: string): number | undefined => (/^[1-9][0-9]{0,14}$/.test(id) ? Number(id) : undefined);

/** Reads the record a subject names: the patient it belongs to and its clinic (null: the organisation's). */
export async function resolveSubject(
  r: TaskServiceRepositories,
  organisationId: number,
  sent: TaskSubject,
): Promise<ResolvedSubject | undefined> {
  const subject = { type: sent.type, id: normaliseSubjectId(sent.type, sent.id) };
  if (subject.type === "soap_note") {
    const note = await r.soapNotes.findByContextId(organisationId, subject.id);
    return note && { subject, patientId: note.patientId, clinicId: note.clinicId };
  }
  const id = numericId(subject.id);
  if (id === undefined) return undefined;
  switch (subject.type) {
    case "appointment": {
      const a = await r.appointments.findById(organisationId, id);
      return a && { subject, patientId: a.patientId, clinicId: a.clinicId };
    }
    case "case": {
      const c = await r.cases.findById(organisationId, id);
      return c && { subject, patientId: c.patientId, clinicId: c.clinicId };
    }
    case "document": {
      const d = await r.patientDocuments.findById(organisationId, id);
      return d && d.status !== "deleted" ? { subject, patientId: d.patientId, clinicId: d.clinicId } : undefined;
    }
    case "authorization": {
      const a = await r.authorizations.findById(organisationId, id);
      const c = a && (await r.cases.findById(organisationId, a.caseId));
      return a && { subject, patientId: a.patientId, clinicId: c?.clinicId ?? null };
    }
    case "coverage": {
      const card = await r.insuranceCards.findById(organisationId, id);
      return card && { subject, patientId: card.patientId, clinicId: null };
    }
  }
}
