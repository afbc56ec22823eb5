import type { AuthorizationRepository, CaseRepository } from "../cases/case-repository.js";
import type { CaseVisitRepositories } from "../cases/case-visits.js";
import type { CatalogRepository } from "../catalog/catalog-repository.js";
import type { InsuranceCardRepository } from "../coverages/insurance-card-repository.js";
import type { JobQueue } from "../kernel/job-queue.js";
import type { OutboxRepository } from "../kernel/outbox-repository.js";
import type { OrganisationRepository } from "../organisations/organisation-repository.js";
import type { PatientRepository } from "../patients/patient-repository.js";
import type { AppointmentRepository } from "./appointment-repository.js";

/** The repositories appointments read and write through: each a port of the feature that owns it. */
export interface AppointmentServiceRepositories extends CaseVisitRepositories {
  appointments: AppointmentRepository;
  cases: CaseRepository;
  authorizations: AuthorizationRepository;
  insuranceCards: InsuranceCardRepository;
  patients: PatientRepository;
  catalog: CatalogRepository;
  organisations: OrganisationRepository;
  outbox: OutboxRepository;
  jobs: JobQueue;
}
