import type { OutboxRepository } from "../kernel/outbox-repository.js";
import type { PatientRepository } from "../patients/patient-repository.js";
import type { PayerRepository } from "../payers/payer-repository.js";
import type { CaseUseRepositories } from "./case-use.js";
import type { InsuranceCardRepository } from "./insurance-card-repository.js";

/** The repositories coverages (insurance cards) read and write through: each a port of the feature that owns it. */
export interface CoverageServiceRepositories extends CaseUseRepositories {
  insuranceCards: InsuranceCardRepository;
  patients: PatientRepository;
  payers: PayerRepository;
  outbox: OutboxRepository;
}
