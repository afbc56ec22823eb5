import type { CaseRepository } from "../cases/case-repository.js";
import type { InsuranceCardRepository } from "../coverages/insurance-card-repository.js";
import type { OutboxRepository } from "../kernel/outbox-repository.js";
import type { PatientRepository } from "../patients/patient-repository.js";
import type { ClearinghouseSettingsRepository } from "./clearinghouse-settings-repository.js";
import type { EligibilityCheckRepository } from "./eligibility-check-repository.js";

/** The repositories eligibility checks read and write through: each a port of the feature that owns it. */
export interface EligibilityServiceRepositories {
  eligibilityChecks: EligibilityCheckRepository;
  clearinghouseSettings: ClearinghouseSettingsRepository;
  insuranceCards: InsuranceCardRepository;
  patients: PatientRepository;
  cases: CaseRepository;
  outbox: OutboxRepository;
}
