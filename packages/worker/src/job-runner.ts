import {
  PermanentJobFailure,
  type ClaimedJob,
  type Clock,
  type Ids,
  type JobContext,
  type JobHandler,
  type JobLease,
  type Storage,
} from "@openpractice/core";
import type { WorkerLogger as Logger } from "./logger.js";
import { tell, type WorkObserver } from "./work-observer.js";
import { startHeartbeat, type Heartbeat } from "./heartbeat.js";

export type { JobContext, JobHandler } from "@openpractice/core";
export { PermanentJobFailure } from "@openpractice/core";

export interface JobRunnerOptions {
  storage: Storage;
  clock: Clock;
  ids: Ids;
  logger: Logger;
  /** Names this process in the jobs' audit trail (completed_by). */
  workerId: string;
  handlers: ReadonlyMap<string, JobHandler>;
  pollIntervalMs: number;
  /** Jobs claimed per queue per poll (default 50). */
  batchSize?: number;
  /** Jobs running at once in this process (default 64); a claim only fills free slots. */
  maxInFlight?: number;
  /** How long a claim holds a job; renewed every third of it while the job runs, so a crashed worker's jobs return after one lease. */
  leaseMs?: number;
  maxAttempts?: number;
  /** Hears each job's outcome (metrics). */
  observer?: WorkObserver | undefined;
}

/**
 * How long a claimed job is held when the runner is given no lease (OPENPRACTICE_JOB_LEASE_MS): short, because the
 * runner renews the leases of the jobs it runs (a heartbeat every third of it), so it bounds how long a crashed
 * process's jobs wait, not how long a job may run.
 */
export const DEFAULT_LEASE_MS = 3_000;

const retryDelayMs = (attempts: number) => Math.min(60 * 60_000, 15_000 * 2 ** (attempts - 1));

/**
 * Polls the store's job queue for every queue that has a handler. Jobs are
 * claimed with a short lease that the runner renews while they run, so several
 * processes share the work without taking the same job twice, and a job whose
 * worker died is taken again one lease after the worker's last heartbeat.
 */
export class JobRunner {
  private timer: NodeJS.Timeout | undefined;
  private heartbeat: Heartbeat | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  /** The jobs in flight, by id, with the token their lease is renewed under. */
  private readonly held = new Map<number, JobLease>();

  constructor(private readonly o: JobRunnerOptions) {}

  private get leaseMs(): number {
    return this.o.leaseMs ?? DEFAULT_LEASE_MS;
  }

  start(): void {
    this.heartbeat = startHeartbeat(this.leaseMs / 3, () => this.renewLeases());
    const loop = async () => {
      if (this.stopped) return;
      let claimed = 0;
      this.running = this.fill().then(
        (n) => void (claimed = n),
        (error) => this.o.logger.warn({ err: { message: (error as Error).message } }, "job poll failed"),
      );
      await this.running;
      if (this.stopped) return;
      // Jobs were due: look again once a quarter of the slots are free (one claim fills many, instead of a claim
      // per finished job). Nothing due: wait the poll interval.
      if (claimed > 0)
        await this.slotsFree(Math.min(this.o.batchSize ?? 50, Math.max(1, Math.floor(this.capacity / 4))));
      this.timer = setTimeout(loop, claimed > 0 ? 0 : this.o.pollIntervalMs);
    };
    this.timer = setTimeout(loop, 0);
  }

  /** Stops claiming and waits for the jobs in hand to finish (their leases renewed until they do). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
    await Promise.all(this.inFlight);
    await this.heartbeat?.stop();
  }

  /** One heartbeat: renews every lease in hand (startHeartbeat never stacks a slow one). */
  private async renewLeases(): Promise<void> {
    if (this.held.size === 0) return;
    await this.o.storage.repositories.jobs.renewLeases([...this.held.values()], this.o.clock.now(), this.leaseMs).then(
      () => undefined,
      (error) => this.o.logger.warn({ err: { message: (error as Error).message } }, "job lease renewal failed"),
    );
  }

  private readonly inFlight = new Set<Promise<void>>();

  private get capacity(): number {
    return this.o.maxInFlight ?? 64;
  }

  /** Resolves when at least `n` of the `capacity` slots are free. */
  private async slotsFree(n: number): Promise<void> {
    while (this.inFlight.size > this.capacity - n) await Promise.race(this.inFlight);
  }

  /**
   * When each queue last came back empty, plus the poll interval (performance.now()): a busy queue must not make the
   * runner claim on every idle one each time a slot frees, so an empty queue is asked again after the poll interval,
   * as it would be when everything is idle.
   */
  private readonly idleUntil = new Map<string, number>();

  /**
   * Claims due jobs of every handled queue into the free slots and starts them
   * without waiting for them, so a slow job never holds up the next claim.
   * Returns how many jobs it claimed.
   */
  private async fill(options: { skipIdleQueues: boolean } = { skipIdleQueues: true }): Promise<number> {
    let claimed = 0;
    for (const [queue, handler] of this.o.handlers) {
      const free = Math.min(this.o.batchSize ?? 50, this.capacity - this.inFlight.size);
      if (free <= 0) break;
      const t = performance.now();
      if (options.skipIdleQueues && (this.idleUntil.get(queue) ?? 0) > t) continue;
      const jobs = await this.o.storage.repositories.jobs.claim(queue, {
        limit: free,
        now: this.o.clock.now(),
        leaseMs: this.leaseMs,
        leaseToken: this.o.ids.uuid(),
      });
      for (const job of jobs) {
        this.held.set(job.id, { id: job.id, leaseToken: job.leaseToken });
        const running: Promise<void> = this.run(job, handler).finally(() => {
          this.inFlight.delete(running);
          this.held.delete(job.id);
        });
        this.inFlight.add(running);
      }
      if (jobs.length === 0) this.idleUntil.set(queue, t + this.o.pollIntervalMs);
      else this.idleUntil.delete(queue);
      claimed += jobs.length;
    }
    return claimed;
  }

  /** One pass over every handled queue that waits for the claimed jobs; returns how many jobs ran (tests, tools). */
  async pollOnce(): Promise<number> {
    const claimed = await this.fill({ skipIdleQueues: false });
    await Promise.all(this.inFlight);
    return claimed;
  }

  private async run(job: ClaimedJob, handler: JobHandler): Promise<void> {
    const jobs = this.o.storage.repositories.jobs;
    const maxAttempts = this.o.maxAttempts ?? 10;
    const started = performance.now();
    const finished = (outcome: "completed" | "retried" | "failed") =>
      tell(() => this.o.observer?.jobFinished?.(job.queue, outcome, (performance.now() - started) / 1000));
    try {
      const context: JobContext = {
        complete: (r) => r.jobs.complete(job.id, job.leaseToken, this.o.clock.now(), this.o.workerId),
        renew: async (r) =>
          (await r.jobs.renewLeases([{ id: job.id, leaseToken: job.leaseToken }], this.o.clock.now(), this.leaseMs)) >
          0,
        finalAttempt: job.attempts >= maxAttempts,
      };
      if ((await handler(job, context)) === "completed") return finished("completed");
      const done = await jobs.complete(job.id, job.leaseToken, this.o.clock.now(), this.o.workerId);
      finished("completed");
      if (!done) this.o.logger.warn({ job_id: job.id, queue: job.queue }, "job finished after its lease was lost");
    } catch (error) {
      const message = (error as Error)?.message ?? String(error);
      if (job.attempts >= maxAttempts || error instanceof PermanentJobFailure) {
        await jobs.fail(job.id, job.leaseToken, this.o.clock.now(), message);
        finished("failed");
        this.o.logger.error(
          { job_id: job.id, queue: job.queue, attempts: job.attempts, reason: message },
          "job failed for good",
        );
      } else {
        await jobs.reschedule(
          job.id,
          job.leaseToken,
          new Date(this.o.clock.now().getTime() + retryDelayMs(job.attempts)),
          message,
        );
        finished("retried");
      }
    }
  }
}
