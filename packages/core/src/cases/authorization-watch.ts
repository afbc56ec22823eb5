import type { JobQueue } from "../kernel/job-queue.js";

/**
 * A case's authorizations may have moved (one written or deleted, the case updated or discharged), announced on a
 * job queue in the transaction of the change, so whoever follows authorizations (tasks' authorization_low rule)
 * learns of it even across a restart. Payload {organisationId, caseId, authorizationId?} (the id names one that
 * may be gone).
 */
export const AUTHORIZATIONS_CHANGED_QUEUE = "cases.authorizations-changed";

export async function queueAuthorizationsChange(
  tx: { jobs: JobQueue },
  change: { organisationId: number; caseId: number; authorizationId?: number | undefined },
  now: Date,
): Promise<void> {
  await tx.jobs.enqueue({ queue: AUTHORIZATIONS_CHANGED_QUEUE, payload: change, runAt: now });
}
