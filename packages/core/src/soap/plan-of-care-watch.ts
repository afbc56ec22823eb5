import type { JobQueue } from "../kernel/job-queue.js";

/**
 * A plan of care was set, updated by a re-evaluation or certified, announced on a job queue in the transaction
 * that changed it, so whoever follows certifications (tasks' plan_certification rule) learns of it even across a
 * restart. Payload {organisationId, planOfCareId}.
 */
export const PLAN_OF_CARE_CHANGED_QUEUE = "soap.plan-of-care-changed";

export async function queuePlanOfCareChange(
  tx: { jobs: JobQueue },
  organisationId: number,
  planOfCareId: number,
  now: Date,
): Promise<void> {
  await tx.jobs.enqueue({ queue: PLAN_OF_CARE_CHANGED_QUEUE, payload: { organisationId, planOfCareId }, runAt: now });
}
