import type { JobQueue } from "../kernel/job-queue.js";
import type { OutboxRepository } from "../kernel/outbox-repository.js";
import type { OrganisationRepository } from "../organisations/organisation-repository.js";
import type { WebhookRepository } from "./webhook-repository.js";

/** The repositories webhook subscriptions and deliveries read and write through: each a port of the feature that owns it. */
export interface WebhookServiceRepositories {
  webhooks: WebhookRepository;
  organisations: OrganisationRepository;
  outbox: OutboxRepository;
  jobs: JobQueue;
}
