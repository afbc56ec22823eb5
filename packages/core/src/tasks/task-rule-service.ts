import { authorizationViews } from "../cases/authorization-usage.js";
import type { Clock } from "../kernel/clock.js";
import type { Ids } from "../kernel/ids.js";
import type { Storage } from "../kernel/storage.js";
import { DEFAULT_TASK_SETTINGS, TASK_RULES, type Task, type TaskRule } from "./task.js";
import { taskEvent } from "./task-events.js";
import { notifyAssignee } from "./task-notifications.js";
import {
  authorizationVerdict,
  cosignVerdict,
  planCertificationVerdict,
  quarantineVerdict,
  ruleKeyOf,
  TASK_RULE_SUBJECTS,
  type RuleVerdict,
} from "./task-raising-rules.js";
import { taskTransition } from "./task-status-transitions.js";
import { medicarePartBCoverage } from "../medicare/medicare-coverage.js";
import { localDate } from "../cases/visit-tracking.js";
import { applyTaskTransition, eventOf } from "./task-transition-effects.js";
import type { TaskServiceRepositories } from "./tasks-service-repositories.js";

/** Re-checks every rule of one organisation (payload {organisationId}): days passing, visits used by bookings. */
export const TASK_RECONCILE_QUEUE = "tasks.reconcile";

/** What one evaluation did. */
export type RuleOutcome = "raised" | "closed" | "released" | "unchanged";

const PAGE = 500;

/**
 * The system's task rules (task-raising-rules.ts) acting on the store: raise one task per rule and subject while
 * the condition holds (a unique rule key decides between racing jobs), and close it, resolved or withdrawn, when
 * it clears. Evaluations run on the job queue, queued in the transaction of the change that may move a condition
 * (a note signed, an authorization written, a scan verdict) and by the periodic reconcile; a rerun changes
 * nothing, so a job run twice or after a restart raises nothing twice.
 */
export class TaskRuleService {
  constructor(private readonly deps: { storage: Storage<TaskServiceRepositories>; clock: Clock; ids: Ids }) {}

  private today(): string {
    return this.deps.clock.now().toISOString().slice(0, 10);
  }

  /** The condition of `rule` for one subject, read now. */
  private async verdict(organisationId: number, rule: TaskRule, subjectId: string): Promise<RuleVerdict> {
    const r = this.deps.storage.repositories;
    const now = this.deps.clock.now();
    switch (rule) {
      case "soap_cosign":
        return cosignVerdict(await r.soapNotes.findByContextId(organisationId, subjectId), now);
      case "document_quarantined":
        return quarantineVerdict(await r.patientDocuments.findById(organisationId, Number(subjectId)), now);
      case "plan_certification": {
        const patientCase = await r.cases.findById(organisationId, Number(subjectId));
        const plan =
          patientCase && (await r.plansOfCare.findFor(organisationId, patientCase.patientId, patientCase.id));
        const visit = patientCase && {
          organisationId,
          patientId: patientCase.patientId,
          serviceCaseId: patientCase.id,
        };
        const medicare = visit ? (await medicarePartBCoverage(r, visit, this.today())) !== undefined : false;
        const evaluator = plan && (await r.soapNotes.findByContextId(organisationId, plan.sourceContextId));
        const assignee = patientCase?.therapistIds[0] ?? evaluator?.renderingPhysician ?? null;
        // Judged on the evaluation's clinic-local date, as the signing warnings and the plan's view are.
        const clinic = evaluator && (await r.organisations.findClinic(organisationId, evaluator.clinicId));
        const today = localDate(now, clinic?.timeZone ?? "UTC");
        return planCertificationVerdict(plan, patientCase, medicare, assignee, today, now);
      }
      case "authorization_low": {
        const authorization = await r.authorizations.findById(organisationId, Number(subjectId));
        const patientCase = authorization && (await r.cases.findById(organisationId, authorization.caseId));
        const [view] = authorization ? await authorizationViews(r, [authorization], this.today()) : [];
        return authorizationVerdict(view, patientCase, this.today(), now);
      }
    }
  }

  /** Evaluates one rule for one subject: raises its task, closes it, or leaves things as they are. */
  async evaluate(organisationId: number, rule: TaskRule, subjectId: string): Promise<RuleOutcome> {
    const r = this.deps.storage.repositories;
    const verdict = await this.verdict(organisationId, rule, subjectId);
    const key = ruleKeyOf(rule, subjectId);
    const existing = await r.tasks.findByRuleKey(organisationId, key);
    if (verdict.holds) {
      if (existing) return "unchanged";
      const settings = (await r.tasks.settingsOf(organisationId)) ?? DEFAULT_TASK_SETTINGS;
      if (settings.disabledRules.includes(rule)) return "unchanged";
      if (!(await this.raise(organisationId, rule, subjectId, verdict.task))) return "unchanged";
      // The subject may have moved between the read and the insert (a note co-signed meanwhile, whose own job found
      // no task to close): read it again, and close what was just raised if its condition is already gone.
      const after = await this.verdict(organisationId, rule, subjectId);
      const raised = after.holds ? undefined : await r.tasks.findByRuleKey(organisationId, key);
      if (raised && !after.holds) await this.clear(raised, after);
      return "raised";
    }
    // A disabled rule still closes what it raised.
    return existing ? this.clear(existing, verdict) : "unchanged";
  }

  private async raise(
    organisationId: number,
    rule: TaskRule,
    subjectId: string,
    fields: Extract<RuleVerdict, { holds: true }>["task"],
  ): Promise<boolean> {
    const now = this.deps.clock.now();
    const r = this.deps.storage.repositories;
    const provider =
      fields.assigneeUserId === null
        ? undefined
        : await r.organisations.findProvider(organisationId, fields.assigneeUserId);
    const assignee = provider?.active ? { type: "provider" as const, id: provider.userId } : null;
    return this.deps.storage.transaction(async (tx) => {
      const task = await tx.tasks.insertRaised({
        organisationId,
        title: fields.title,
        description: fields.description,
        patientId: fields.patientId,
        subject: { type: TASK_RULE_SUBJECTS[rule], id: subjectId },
        clinicId: fields.clinicId,
        assignee,
        assignmentSeq: assignee ? 1 : 0,
        priority: fields.priority,
        dueAt: fields.dueAt,
        status: "open",
        origin: "system",
        rule,
        ruleKey: ruleKeyOf(rule, subjectId),
        createdByUserId: null,
        createdByClientId: null,
        completedAt: null,
        completedByUserId: null,
        resolution: null,
        overdueAt: assignee ? fields.dueAt : null,
        overdueNotifiedFor: null,
        version: 1,
        createdAt: now,
        updatedAt: now,
      });
      if (!task) return false;
      await tx.outbox.append(taskEvent("task.created", { organisation_id: organisationId, task_id: task.id }, now));
      await notifyAssignee(tx, this.deps.ids, task, "assigned", now);
      await tx.audit.append([systemAudit(task, "system.raiseTask", now)]);
      return true;
    });
  }

  /**
   * The condition cleared: an open task is resolved or withdrawn through the table (which releases its key); a
   * closed one (a person finished it early) only gives its key up, so a return of the condition raises anew.
   */
  private async clear(task: Task, verdict: Extract<RuleVerdict, { holds: false }>): Promise<RuleOutcome> {
    const now = this.deps.clock.now();
    const row = taskTransition(task.status, verdict.trigger);
    const next = row
      ? applyTaskTransition(task, row, { kind: "system", resolution: verdict.resolution }, now)
      : { ...task, ruleKey: null, updatedAt: now };
    return this.deps.storage.transaction(async (tx) => {
      // Lost to a person's write: the job throws and runs again on the task as it now is.
      if (!(await tx.tasks.updateIfVersion(next)))
        throw new Error(`task ${task.id} changed while its rule closed it; the job runs again`);
      if (!row) return "released";
      await tx.outbox.append(taskEvent(eventOf(row), { organisation_id: task.organisationId, task_id: task.id }, now));
      await tx.audit.append([systemAudit(next, `system.${verdict.trigger}Task`, now)]);
      return "closed";
    });
  }

  /** After a plan of care changed (set, re-evaluated, certified): its case's certification rule. */
  async evaluatePlanOfCare(organisationId: number, planOfCareId: number): Promise<void> {
    const plan = await this.deps.storage.repositories.plansOfCare.findById(organisationId, planOfCareId);
    if (plan?.serviceCaseId != null)
      await this.evaluate(organisationId, "plan_certification", String(plan.serviceCaseId));
  }

  /** After an authorization or its case changed: every authorization of the case, and the one named (deleted, maybe). */
  async evaluateCase(organisationId: number, caseId: number, authorizationId?: number): Promise<void> {
    const ids = new Set(
      (await this.deps.storage.repositories.authorizations.listByCase(organisationId, caseId)).map((a) => a.id),
    );
    if (authorizationId !== undefined) ids.add(authorizationId);
    for (const id of ids) await this.evaluate(organisationId, "authorization_low", String(id));
  }

  /**
   * The periodic reconcile of one organisation: the subjects whose condition may hold (notes awaiting co-signature,
   * authorizations), then every open system task (whose condition may have cleared without a change that queued
   * a check). Returns how many evaluations changed something.
   */
  async reconcile(organisationId: number): Promise<number> {
    const r = this.deps.storage.repositories;
    let changed = 0;
    const failures: unknown[] = [];
    const count = (outcome: RuleOutcome | undefined) => {
      if (outcome !== undefined && outcome !== "unchanged") changed++;
    };
    // One subject failing (a task a person is writing at this moment) does not stop the others; the job runs again.
    const evaluate = (rule: TaskRule, subjectId: string) =>
      this.evaluate(organisationId, rule, subjectId).catch((error: unknown) => {
        failures.push(error);
        return undefined;
      });
    for (let offset = 0; ; offset += PAGE) {
      const { notes } = await r.soapNotes.list({ organisationId, statuses: ["COSIGN"], limit: PAGE, offset });
      for (const note of notes) count(await evaluate("soap_cosign", note.contextId));
      if (notes.length < PAGE) break;
    }
    for (let offset = 0; ; offset += PAGE) {
      const { authorizations } = await r.authorizations.search({
        organisationId,
        patientTerms: [],
        limit: PAGE,
        offset,
      });
      for (const a of authorizations)
        if (a.status === "ACTIVE") count(await evaluate("authorization_low", String(a.id)));
      if (authorizations.length < PAGE) break;
    }
    // Plans whose period has not ended more than a month ago: due, lapsed lately, or about to be.
    const since = new Date(this.deps.clock.now().getTime() - 30 * 86_400_000).toISOString().slice(0, 10);
    for (let after = 0; ; ) {
      const plans = await r.plansOfCare.listOfCasesEndingFrom(organisationId, since, after, PAGE);
      for (const plan of plans)
        if (plan.serviceCaseId !== null) count(await evaluate("plan_certification", String(plan.serviceCaseId)));
      if (plans.length < PAGE) break;
      after = plans[plans.length - 1]!.id;
    }
    for (const rule of TASK_RULES)
      for (let after = 0; ; ) {
        const open = await r.tasks.openOfRule(organisationId, rule, after, PAGE);
        for (const task of open) if (task.subject) count(await this.evaluate(organisationId, rule, task.subject.id));
        if (open.length < PAGE) break;
        after = open[open.length - 1]!.id;
      }
    if (failures.length > 0)
      throw new AggregateError(
        failures,
        `${failures.length} task rule evaluations of organisation ${organisationId} failed`,
      );
    return changed;
  }

  /** Queues one reconcile per active organisation (the worker's periodic task calls this). */
  async queueReconciles(): Promise<number> {
    const r = this.deps.storage.repositories;
    const now = this.deps.clock.now();
    let queued = 0;
    for (let offset = 0; ; offset += PAGE) {
      const { organisations } = await r.organisations.listOrganisations({ deactivated: false, limit: PAGE, offset });
      for (const organisation of organisations) {
        await r.jobs.enqueue({ queue: TASK_RECONCILE_QUEUE, payload: { organisationId: organisation.id }, runAt: now });
        queued++;
      }
      if (organisations.length < PAGE) break;
    }
    return queued;
  }

  /**
   * The overdue sweep: every task (of any organisation) past a due time it still owes a notice for gets one, in
   * the assignee's inbox and as a push, once: the row's compare-and-set and the notice's idempotency key both
   * keep a second sweep, a second worker or a restart from sending it again. Returns how many were marked.
   */
  async sendOverdue(limit = PAGE): Promise<number> {
    const now = this.deps.clock.now();
    const due = await this.deps.storage.repositories.tasks.dueOverdue(now, limit);
    let sent = 0;
    for (const task of due) {
      if (!task.overdueAt || task.overdueAt > now) continue;
      const marked = await this.deps.storage.transaction(async (tx) => {
        const next: Task = { ...task, overdueAt: null, overdueNotifiedFor: task.dueAt, updatedAt: task.updatedAt };
        if (!(await tx.tasks.updateIfVersion(next))) return false;
        await notifyAssignee(tx, this.deps.ids, task, "overdue", now);
        return true;
      });
      if (marked) sent++;
    }
    return sent;
  }
}

function systemAudit(task: Task, action: string, at: Date) {
  return {
    organisationId: task.organisationId,
    occurredAt: at,
    actorUserId: null,
    actorName: `system: task rule ${task.rule}`,
    clientId: null,
    action,
    resourceType: "task",
    resourceId: String(task.id),
    requestId: null,
    changedFields: [],
  };
}
