import type { JobQueue } from "../kernel/job-queue.js";

/**
 * A document entered quarantine (the scan found something) or left it (deleted), announced on a job queue in the
 * transaction of the change, so whoever follows quarantines (tasks' document_quarantined rule) learns of it even
 * across a restart. Payload {organisationId, documentId}.
 */
export const QUARANTINE_CHANGED_QUEUE = "documents.quarantine-changed";

export async function queueQuarantineChange(
  tx: { jobs: JobQueue },
  organisationId: number,
  documentId: number,
  now: Date,
): Promise<void> {
  await tx.jobs.enqueue({ queue: QUARANTINE_CHANGED_QUEUE, payload: { organisationId, documentId }, runAt: now });
}
