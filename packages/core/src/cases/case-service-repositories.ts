import type { JobQueue } from "../kernel/job-queue.js";
import type { CatalogRepository } from "../catalog/catalog-repository.js";
import type { InsuranceCardRepository } from "../coverages/insurance-card-repository.js";
import type { IcdRepository } from "../icd/icd-repository.js";
import type { OutboxRepository } from "../kernel/outbox-repository.js";
import type { OrganisationRepository } from "../organisations/organisation-repository.js";
import type { PatientRepository } from "../patients/patient-repository.js";
import type { PayerRepository } from "../payers/payer-repository.js";
import type { AuthorizationRepository, CaseRepository, ReferringPhysicianRepository } from "./case-repository.js";
import type { CaseVisitRepositories } from "./case-visits.js";

/** The repositories cases, referring physicians, insurance cards and authorizations read and write through: each a port of the feature that owns it. */
export interface CaseServiceRepositories extends CaseVisitRepositories {
  cases: CaseRepository;
  referringPhysicians: ReferringPhysicianRepository;
  authorizations: AuthorizationRepository;
  insuranceCards: InsuranceCardRepository;
  patients: PatientRepository;
  catalog: CatalogRepository;
  organisations: OrganisationRepository;
  icd: IcdRepository;
  payers: PayerRepository;
  outbox: OutboxRepository;
  jobs: JobQueue;
}
