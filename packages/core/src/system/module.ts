import type { JobQueue, LockStore } from "../kernel/job-queue.js";
import { defineCoreModule, owns } from "../kernel/module.js";
import type { OutboxRepository } from "../kernel/outbox-repository.js";
import { SYSTEM_ERROR_CODES } from "../kernel/system-errors.js";

/**
 * The kernel as a module: the codes every route may answer (contract, authentication, routing, outages) and the
 * repositories every module writes through (the outbox, the job queue, the locks); no services of its own.
 */
export const systemModule = defineCoreModule({
  key: "system",
  repositories: owns<{ outbox: OutboxRepository; jobs: JobQueue; locks: LockStore }>(),
  createServices: () => ({}),
  errorCodes: SYSTEM_ERROR_CODES,
  events: {},
});
