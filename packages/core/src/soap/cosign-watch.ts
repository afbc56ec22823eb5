import type { JobQueue } from "../kernel/job-queue.js";

/**
 * A note entered or left co-signature (status COSIGN), announced on a job queue in the transaction that moved it,
 * so whoever follows co-signatures (tasks' soap_cosign rule) learns of it even across a restart. Payload
 * {organisationId, contextId}.
 */
export const COSIGN_CHANGED_QUEUE = "soap.cosign-changed";

export async function queueCosignChange(
  tx: { jobs: JobQueue },
  organisationId: number,
  contextId: string,
  now: Date,
): Promise<void> {
  await tx.jobs.enqueue({ queue: COSIGN_CHANGED_QUEUE, payload: { organisationId, contextId }, runAt: now });
}
