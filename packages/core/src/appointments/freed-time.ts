import type { JobQueue } from "../kernel/job-queue.js";

/**
 * Time a provider got back (an appointment cancelled, a block removed, a waitlist offer that lapsed), announced on
 * a job queue in the transaction that freed it, so whoever fills freed time (the waitlist) learns of it even
 * across a restart. The provider is named by doctor (user) id or v2 provider id; the clinic when it is known.
 */
export interface FreedTime {
  organisationId: number;
  doctorId?: number | undefined;
  providerId?: number | undefined;
  clinicId: number | null;
  startsAt: string;
  endsAt: string;
}

export const FREED_TIME_QUEUE = "scheduling.time-freed";

/** Queues the freed time in `tx`, unless it is over already: nobody books the past. */
export async function queueFreedTime(
  tx: { jobs: JobQueue },
  freed: Omit<FreedTime, "startsAt" | "endsAt"> & { startsAt: Date; endsAt: Date },
  now: Date,
): Promise<void> {
  if (freed.endsAt.getTime() <= now.getTime()) return;
  const payload: FreedTime = { ...freed, startsAt: freed.startsAt.toISOString(), endsAt: freed.endsAt.toISOString() };
  await tx.jobs.enqueue({ queue: FREED_TIME_QUEUE, payload, runAt: now });
}
