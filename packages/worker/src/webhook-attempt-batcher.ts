import type { AttemptOutcome, JobLease, Practice } from "@openpractice/core";

interface Waiting {
  outcome: AttemptOutcome;
  job: JobLease;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for webhook attempts: the attempts that finish in the same turn
 * of the event loop (up to `maxBatch`) are recorded, and their jobs completed
 * (completeMany), in one transaction instead of one each. On SQLite every transaction holds the
 * store's single connection across its statements, so fewer, fuller
 * transactions leave it free more of the time. If the shared transaction
 * fails, every attempt in it fails like a crash before recording would: its
 * job is retried and the receiver may see the event again (deliveries are
 * at-least-once; receivers deduplicate on event_id).
 */
export class WebhookAttemptBatcher {
  private waiting: Waiting[] = [];
  private scheduled = false;

  constructor(
    private readonly practice: Practice,
    /** Names this process in the completed jobs' audit trail. */
    private readonly workerId: string,
    private readonly maxBatch = 64,
  ) {}

  /** Resolves once the attempt and its job's completion have committed. */
  record(outcome: AttemptOutcome, job: JobLease): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ outcome, job, resolve, reject });
      if (this.waiting.length >= this.maxBatch) void this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          void this.flush();
        });
      }
    });
  }

  private async flush(): Promise<void> {
    const batch = this.waiting;
    this.waiting = [];
    if (batch.length === 0) return;
    try {
      await this.practice.storage.transaction(async (tx) => {
        await this.practice.webhookDeliveries.recordAttempts(
          tx,
          batch.map((w) => w.outcome),
        );
        // A job whose lease was lost is not completed here; the attempt stays recorded (at-least-once).
        await tx.jobs.completeMany(
          batch.map((w) => w.job),
          this.practice.clock.now(),
          this.workerId,
        );
      });
      for (const w of batch) w.resolve();
    } catch (error) {
      for (const w of batch) w.reject(error);
    }
  }
}
