/** A job as a worker holds it after claiming. */
export interface ClaimedJob {
  id: number;
  queue: string;
  payload: unknown;
  runAt: Date;
  /** Claims so far, this one included. */
  attempts: number;
  /** Proof of holding: complete/reschedule/fail act only while this token holds the lease. */
  leaseToken: string;
  leaseExpiresAt: Date;
}

/** A claimed job as complete/reschedule/fail need it: its id and the token of the lease that holds it. */
export type JobLease = Pick<ClaimedJob, "id" | "leaseToken">;

export interface NewJob {
  queue: string;
  payload: unknown;
  /** When the job becomes due. */
  runAt: Date;
}

/**
 * A durable job queue in the store. Enqueue through the repositories of a
 * transaction to make a job commit (or vanish) with the change that caused it.
 *
 * Contract:
 * - `claim` returns at most `limit` jobs of the queue that are pending, due
 *   (`runAt <= now`) and not leased (or whose lease expired), oldest due first,
 *   and leases each to the caller until `now + leaseMs` under a fresh lease
 *   token. Two concurrent claims, from any processes, never return the same job
 *   while its lease is valid. A job whose lease expires is claimable again
 *   (at-least-once delivery).
 * - Leases are meant to be short (seconds) and renewed by their holder with
 *   `renewLeases` while it works (a heartbeat), so the jobs of a process that
 *   dies come back within one lease, however long the work itself takes.
 * - `complete`, `reschedule` and `fail` apply only when the token still holds
 *   the lease; they return false otherwise (another worker reclaimed the job)
 *   and change nothing.
 */
export interface JobQueue {
  enqueue(job: NewJob): Promise<number>;
  /** Enqueues every job (in as few statements as the engine allows); nothing when the list is empty. */
  enqueueMany(jobs: NewJob[]): Promise<void>;
  claim(
    queue: string,
    options: { limit: number; now: Date; leaseMs: number; leaseToken: string },
  ): Promise<ClaimedJob[]>;
  /** Marks the job done; `completedBy` names the worker for the audit trail. */
  complete(jobId: number, leaseToken: string, now: Date, completedBy: string): Promise<boolean>;
  /** `complete` for many jobs at once, in as few statements as the engine allows; returns how many it completed. */
  completeMany(jobs: JobLease[], now: Date, completedBy: string): Promise<number>;
  /**
   * The holder's heartbeat: extends to `now + leaseMs` the lease of each job its
   * token still holds (pending, same token), in as few statements as the engine
   * allows, and returns how many it extended. A job another worker claimed since,
   * or one already settled, is left alone, so a renewal never takes a job back.
   */
  renewLeases(jobs: JobLease[], now: Date, leaseMs: number): Promise<number>;
  /** Makes the job pending again at `runAt`, releasing the lease and recording the error. */
  reschedule(jobId: number, leaseToken: string, runAt: Date, lastError: string | null): Promise<boolean>;
  /** Gives up: the job is failed and never claimed again. */
  fail(jobId: number, leaseToken: string, now: Date, lastError: string): Promise<boolean>;
  /**
   * The queues' backlog for monitoring: pending jobs due by `now` (and when the oldest of them was due), pending
   * jobs scheduled later, and failed jobs. Queues without such jobs answer zeros.
   */
  stats(queues: readonly string[], now: Date): Promise<QueueStats[]>;
}

export interface QueueStats {
  queue: string;
  due: number;
  scheduled: number;
  failed: number;
  oldestDueAt: Date | null;
}

/**
 * Named leases so that only one process runs each periodic task tick.
 *
 * Contract:
 * - `tryAcquire` succeeds when the lock is free, expired, or already held by
 *   `holder` (which extends it to `now + ttlMs`); at most one holder has an
 *   unexpired lease, whichever processes call it concurrently.
 * - A holder keeps a lock by calling `tryAcquire` again well within `ttlMs` (a
 *   heartbeat) and stops its work when that returns false (the lease lapsed
 *   and another holder took it). A holder that dies stops renewing, so its lock
 *   is free at most `ttlMs` after its last renewal: ttls are seconds, not minutes.
 * - `release` frees the lock at once if `holder` holds it (a graceful stop),
 *   and does nothing otherwise.
 */
export interface LockStore {
  tryAcquire(name: string, holder: string, now: Date, ttlMs: number): Promise<boolean>;
  release(name: string, holder: string): Promise<void>;
}
