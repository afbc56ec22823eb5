import type { ClaimedJob, Clock, Ids, Storage } from "@openpractice/core";
import type { Logger } from "./logger.js";

/** Runs one job; throwing reschedules it (or fails it once attempts are used up). */
export type JobHandler = (job: ClaimedJob) => Promise<void>;

export interface JobRunnerOptions {
  storage: Storage;
  clock: Clock;
  ids: Ids;
  logger: Logger;
  /** Names this process in the jobs' audit trail (completed_by). */
  workerId: string;
  handlers: ReadonlyMap<string, JobHandler>;
  pollIntervalMs: number;
  /** Jobs claimed per queue per poll. */
  batchSize?: number;
  /** Longer than any handler may take; a crashed worker's jobs return after it. */
  leaseMs?: number;
  maxAttempts?: number;
}

const retryDelayMs = (attempts: number) => Math.min(60 * 60_000, 15_000 * 2 ** (attempts - 1));

/**
 * Polls the store's job queue for every queue that has a handler. Jobs are
 * claimed with a lease, so several processes share the work without taking
 * the same job twice; a job whose worker died is taken again after its lease.
 */
export class JobRunner {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly o: JobRunnerOptions) {}

  start(): void {
    const loop = async () => {
      if (this.stopped) return;
      this.running = this.pollOnce().then(
        () => undefined,
        (error) => this.o.logger.warn({ err: { message: (error as Error).message } }, "job poll failed"),
      );
      await this.running;
      if (!this.stopped) this.timer = setTimeout(loop, this.o.pollIntervalMs);
    };
    this.timer = setTimeout(loop, 0);
  }

  /** Stops polling and waits for the jobs in hand to finish. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** One pass over every handled queue; returns how many jobs ran. */
  async pollOnce(): Promise<number> {
    let ran = 0;
    for (const [queue, handler] of this.o.handlers) {
      const jobs = await this.o.storage.repositories.jobs.claim(queue, {
        limit: this.o.batchSize ?? 20,
        now: this.o.clock.now(),
        leaseMs: this.o.leaseMs ?? 60_000,
        leaseToken: this.o.ids.uuid(),
      });
      await Promise.all(jobs.map((job) => this.run(job, handler)));
      ran += jobs.length;
    }
    return ran;
  }

  private async run(job: ClaimedJob, handler: JobHandler): Promise<void> {
    const jobs = this.o.storage.repositories.jobs;
    try {
      await handler(job);
      const done = await jobs.complete(job.id, job.leaseToken, this.o.clock.now(), this.o.workerId);
      if (!done) this.o.logger.warn({ job_id: job.id, queue: job.queue }, "job finished after its lease was lost");
    } catch (error) {
      const message = (error as Error)?.message ?? String(error);
      if (job.attempts >= (this.o.maxAttempts ?? 10)) {
        await jobs.fail(job.id, job.leaseToken, this.o.clock.now(), message);
        this.o.logger.error({ job_id: job.id, queue: job.queue, attempts: job.attempts }, "job failed for good");
      } else {
        await jobs.reschedule(job.id, job.leaseToken, new Date(this.o.clock.now().getTime() + retryDelayMs(job.attempts)), message);
      }
    }
  }
}
