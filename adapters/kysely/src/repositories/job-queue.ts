import type { ClaimedJob, JobLease, JobQueue, NewJob, QueueStats } from "@openpractice/core";
import { sql, type Kysely, type Selectable } from "kysely";
import { fromDbTime, toDbTime } from "../db-time.js";
import type { Database } from "../schema.js";
import type { JobsTable } from "../tables/foundation.js";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";
import { groupBy, slices } from "../batches.js";
import { insertReturningId } from "./insert-returning-id.js";

const toClaimed = (r: Selectable<JobsTable>): ClaimedJob => ({
  id: Number(r.id),
  queue: r.queue,
  payload: JSON.parse(r.payload),
  runAt: fromDbTime(r.run_at),
  attempts: Number(r.attempts),
  leaseToken: r.lease_token as string,
  leaseExpiresAt: fromDbTime(r.lease_expires_at as string),
});

const jobColumns = (job: NewJob, now: Date) => ({
  queue: job.queue,
  payload: JSON.stringify(job.payload ?? null),
  status: "pending",
  run_at: toDbTime(job.runAt),
  attempts: 0,
  created_at: toDbTime(now),
});

export class KyselyJobQueue implements JobQueue {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly profile: SqlDialectProfile,
  ) {}

  async stats(queues: readonly string[], now: Date): Promise<QueueStats[]> {
    const out = new Map(
      queues.map((queue) => [queue, { queue, due: 0, scheduled: 0, failed: 0, oldestDueAt: null as Date | null }]),
    );
    if (queues.length === 0) return [];
    const at = toDbTime(now);
    // One pass over the (queue, status, run_at) index range of the unfinished and failed jobs.
    const rows = await this.db
      .selectFrom("jobs")
      .select((eb) => [
        "queue",
        "status",
        eb.case().when("run_at", "<=", at).then(1).else(0).end().as("is_due"),
        eb.fn.countAll().as("n"),
        eb.fn.min("run_at").as("oldest"),
      ])
      .where("queue", "in", [...queues])
      .where("status", "in", ["pending", "failed"])
      // By position: the due flag's expression carries a parameter, which PostgreSQL would not match by text.
      .groupBy([sql`1`, sql`2`, sql`3`])
      .execute();
    for (const r of rows) {
      const entry = out.get(r.queue);
      if (!entry) continue;
      const n = Number(r.n);
      if (r.status === "failed") entry.failed += n;
      else if (Number(r.is_due) === 1) {
        entry.due += n;
        entry.oldestDueAt = r.oldest ? fromDbTime(String(r.oldest)) : null;
      } else entry.scheduled += n;
    }
    return [...out.values()];
  }

  async enqueue(job: NewJob): Promise<number> {
    return insertReturningId(this.db, this.profile, "jobs", jobColumns(job, new Date()));
  }

  async enqueueMany(jobs: NewJob[]): Promise<void> {
    const now = new Date();
    for (const batch of slices(jobs, 500))
      await this.db
        .insertInto("jobs")
        .values(batch.map((j) => jobColumns(j, now)))
        .execute();
  }

  async claim(
    queue: string,
    o: { limit: number; now: Date; leaseMs: number; leaseToken: string },
  ): Promise<ClaimedJob[]> {
    const now = toDbTime(o.now);
    const lease = {
      lease_token: o.leaseToken,
      lease_expires_at: toDbTime(new Date(o.now.getTime() + o.leaseMs)),
      attempts: sql<number>`attempts + 1`,
    };
    const due = (db: Kysely<Database>) =>
      db
        .selectFrom("jobs")
        .select("id")
        .where("queue", "=", queue)
        .where("status", "=", "pending")
        .where("run_at", "<=", now)
        .where((eb) => eb.or([eb("lease_expires_at", "is", null), eb("lease_expires_at", "<=", now)]))
        .orderBy("run_at")
        .orderBy("id")
        .limit(o.limit);

    if (!this.profile.capabilities.skipLocked) {
      // Single-writer engines (SQLite): one UPDATE ... WHERE id IN (due) RETURNING is atomic.
      const rows = await this.db
        .updateTable("jobs")
        .set(lease)
        .where("id", "in", due(this.db))
        .returningAll()
        .execute();
      return rows.map(toClaimed).sort((a, b) => a.runAt.getTime() - b.runAt.getTime() || a.id - b.id);
    }
    // Engines with row locks: lock due rows, skipping those another claimer holds, then lease them.
    return this.db.transaction().execute(async (trx) => {
      const picked = await due(trx).forUpdate().skipLocked().execute();
      const ids = picked.map((r) => Number(r.id));
      if (ids.length === 0) return [];
      await trx.updateTable("jobs").set(lease).where("id", "in", ids).execute();
      const rows = await trx
        .selectFrom("jobs")
        .selectAll()
        .where("id", "in", ids)
        .orderBy("run_at")
        .orderBy("id")
        .execute();
      return rows.map(toClaimed);
    });
  }

  private async settle(
    jobId: number,
    leaseToken: string,
    changes: Partial<Record<keyof JobsTable, unknown>>,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable("jobs")
      .set({ ...changes, lease_token: null, lease_expires_at: null } as never)
      .where("id", "=", jobId)
      .where("lease_token", "=", leaseToken)
      .where("status", "=", "pending")
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async complete(jobId: number, leaseToken: string, now: Date, completedBy: string): Promise<boolean> {
    return (await this.completeMany([{ id: jobId, leaseToken }], now, completedBy)) === 1;
  }

  completeMany(jobs: JobLease[], now: Date, completedBy: string): Promise<number> {
    return this.updateHeld(jobs, {
      status: "done",
      finished_at: toDbTime(now),
      completed_by: completedBy,
      lease_token: null,
      lease_expires_at: null,
    });
  }

  renewLeases(jobs: JobLease[], now: Date, leaseMs: number): Promise<number> {
    return this.updateHeld(jobs, { lease_expires_at: toDbTime(new Date(now.getTime() + leaseMs)) });
  }

  /** Applies `changes` to the pending jobs whose lease the given tokens still hold; returns how many rows changed. */
  private async updateHeld(jobs: JobLease[], changes: Partial<Record<keyof JobsTable, unknown>>): Promise<number> {
    // Jobs claimed together share their lease token: one UPDATE per token (by primary key, never a scan).
    let updated = 0;
    for (const [leaseToken, held] of groupBy(jobs, (j) => j.leaseToken)) {
      for (const ids of slices(
        held.map((j) => j.id),
        500,
      )) {
        const result = await this.db
          .updateTable("jobs")
          .set(changes as never)
          .where("id", "in", ids)
          .where("lease_token", "=", leaseToken)
          .where("status", "=", "pending")
          .executeTakeFirst();
        updated += Number(result.numUpdatedRows);
      }
    }
    return updated;
  }

  reschedule(jobId: number, leaseToken: string, runAt: Date, lastError: string | null): Promise<boolean> {
    return this.settle(jobId, leaseToken, { run_at: toDbTime(runAt), last_error: lastError });
  }

  fail(jobId: number, leaseToken: string, now: Date, lastError: string): Promise<boolean> {
    return this.settle(jobId, leaseToken, { status: "failed", finished_at: toDbTime(now), last_error: lastError });
  }
}
