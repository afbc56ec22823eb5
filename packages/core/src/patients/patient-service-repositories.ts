import type { OutboxRepository } from "../kernel/outbox-repository.js";
import type { OrganisationRepository } from "../organisations/organisation-repository.js";
import type { PatientRepository } from "./patient-repository.js";

/** The repositories the patient registry read and write through: each a port of the feature that owns it. */
export interface PatientServiceRepositories {
  patients: PatientRepository;
  organisations: OrganisationRepository;
  outbox: OutboxRepository;
}
