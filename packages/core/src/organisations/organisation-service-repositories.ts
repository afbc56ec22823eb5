import type { OutboxRepository } from "../kernel/outbox-repository.js";
import type { OrganisationRepository } from "./organisation-repository.js";

/** The repositories the directory services (clinics, providers, documentation settings) read and write through: each a port of the feature that owns it. */
export interface OrganisationServiceRepositories {
  organisations: OrganisationRepository;
  outbox: OutboxRepository;
}
