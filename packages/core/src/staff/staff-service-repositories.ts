import type { OutboxRepository } from "../kernel/outbox-repository.js";
import type { OrganisationRepository } from "../organisations/organisation-repository.js";
import type { StaffRepository } from "./staff-repository.js";

/** The repositories the staff service read and write through: each a port of the feature that owns it. */
export interface StaffServiceRepositories {
  staff: StaffRepository;
  organisations: OrganisationRepository;
  outbox: OutboxRepository;
}
