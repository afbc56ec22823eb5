import { AUTHORIZATIONS_CHANGED_QUEUE } from "../cases/authorization-watch.js";
import { QUARANTINE_CHANGED_QUEUE } from "../documents/quarantine-watch.js";
import { defineCoreModule, type ModuleDependencies, owns } from "../kernel/module.js";
import { COSIGN_CHANGED_QUEUE } from "../soap/cosign-watch.js";
import { PLAN_OF_CARE_CHANGED_QUEUE } from "../soap/plan-of-care-watch.js";
import { TASK_ERROR_CODES } from "./task-errors.js";
import { TASK_EVENTS } from "./task-events.js";
import type { TaskRepository } from "./task-repository.js";
import { TASK_RECONCILE_QUEUE, TaskRuleService } from "./task-rule-service.js";
import { TaskService } from "./task-service.js";
import type { TaskServiceRepositories } from "./tasks-service-repositories.js";

const ids = (payload: unknown) => payload as Record<string, unknown>;

/**
 * Tasks (spec 9.4, on v1): the clinic's work queue, assigned to providers and staff, and raised by the system
 * where work is waiting. The rules listen on the queues of the domains whose changes move their conditions (those
 * domains announce; they never import tasks).
 */
export const tasksModule = defineCoreModule({
  key: "tasks",
  repositories: owns<{ tasks: TaskRepository }>(),
  createServices: ({ storage, clock, ids: idSource }: ModuleDependencies<TaskServiceRepositories>) => ({
    tasks: new TaskService({ storage, clock, ids: idSource }),
    taskRules: new TaskRuleService({ storage, clock, ids: idSource }),
  }),
  errorCodes: TASK_ERROR_CODES,
  events: TASK_EVENTS,
  jobs: ({ taskRules }) => ({
    [COSIGN_CHANGED_QUEUE]: async (job) => {
      const { organisationId, contextId } = ids(job.payload);
      await taskRules.evaluate(Number(organisationId), "soap_cosign", String(contextId));
    },
    [AUTHORIZATIONS_CHANGED_QUEUE]: async (job) => {
      const { organisationId, caseId, authorizationId } = ids(job.payload);
      await taskRules.evaluateCase(
        Number(organisationId),
        Number(caseId),
        authorizationId === undefined ? undefined : Number(authorizationId),
      );
    },
    [QUARANTINE_CHANGED_QUEUE]: async (job) => {
      const { organisationId, documentId } = ids(job.payload);
      await taskRules.evaluate(Number(organisationId), "document_quarantined", String(documentId));
    },
    [PLAN_OF_CARE_CHANGED_QUEUE]: async (job) => {
      const { organisationId, planOfCareId } = ids(job.payload);
      await taskRules.evaluatePlanOfCare(Number(organisationId), Number(planOfCareId));
    },
    [TASK_RECONCILE_QUEUE]: async (job) => {
      await taskRules.reconcile(Number(ids(job.payload).organisationId));
    },
  }),
});
