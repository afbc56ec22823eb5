import type { FeeScheduleRepository } from "../billing/fee-schedule-repository.js";
import type { OutboxRepository } from "../kernel/outbox-repository.js";
import type { OrganisationRepository } from "../organisations/organisation-repository.js";
import type { PatientRepository } from "../patients/patient-repository.js";
import type { MedicareCoverageRepositories } from "./medicare-coverage.js";
import type { TherapyChargeRepository } from "./therapy-charge-repository.js";
import type { TherapyDiscipline } from "./therapy-discipline.js";

/** What the Medicare therapy rules read and write: each a port of the feature that owns it. */
export interface MedicareServiceRepositories extends MedicareCoverageRepositories {
  therapyCharges: TherapyChargeRepository;
  feeSchedules: Pick<FeeScheduleRepository, "allowedCents">;
  organisations: Pick<OrganisationRepository, "findClinic" | "findProvider">;
  /** The SOAP notes' plans of care, as far as these rules read them (a structural port: soap builds on medicare, not the reverse). */
  plansOfCare: {
    findFor(
      organisationId: number,
      patientId: number,
      serviceCaseId: number | null,
    ): Promise<
      | {
          medicalNecessity: string | null;
          discipline: TherapyDiscipline | null;
          certificationStart: string;
          certificationEnd: string;
          certifiedOn: string | null;
        }
      | undefined
    >;
  };
  patients: Pick<PatientRepository, "findById">;
  outbox: OutboxRepository;
}
