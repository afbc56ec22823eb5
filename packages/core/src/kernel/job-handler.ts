import type { ClaimedJob, JobQueue } from "./job-queue.js";

/**
 * Runs one job; throwing reschedules it (or fails it once attempts are used up).
 * A handler that completed the job itself, in its own transaction (see
 * JobContext.complete), returns "completed" so the runner does not.
 * The handler is domain work only: the runner (outside core) owns timers,
 * leases and polling.
 */
export type JobHandler = (job: ClaimedJob, context: JobContext) => Promise<void | "completed">;

export interface JobContext {
  /** Completes the job through the given repositories (a transaction's), as the runner would. */
  complete(repositories: { jobs: JobQueue }): Promise<boolean>;
  /**
   * Extends the job's lease through the given repositories (a transaction's); false when this worker no longer
   * holds it (it ran out and another worker claimed the job). A long job that commits as it goes checks it in each
   * commit, so a worker that lost its job never commits again.
   */
  renew(repositories: { jobs: JobQueue }): Promise<boolean>;
  /** This is the job's last attempt: if it throws now, the job fails for good. */
  readonly finalAttempt: boolean;
}

/**
 * Thrown by a handler whose job can never succeed (the same input fails the
 * same way every time): the runner fails the job at once, with this message,
 * instead of retrying it.
 */
export class PermanentJobFailure extends Error {
  override readonly name = "PermanentJobFailure";
}
