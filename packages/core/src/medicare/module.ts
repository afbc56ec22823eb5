import { defineCoreModule, type ModuleDependencies, owns } from "../kernel/module.js";
import { MEDICARE_EVENTS } from "./medicare-events.js";
import type { MedicareServiceRepositories } from "./medicare-service-repositories.js";
import type { TherapyChargeRepository } from "./therapy-charge-repository.js";
import { TherapyThresholdService } from "./therapy-threshold-service.js";

/**
 * Medicare Part B outpatient therapy rules (docs/medicare-therapy.md): the amounts each beneficiary's year has
 * incurred per bucket, the KX and targeted review thresholds over them. The rules run inside the SOAP workflow's
 * transactions (the sheet's proposals, the completion's charges and event); this module owns the ledger.
 */
export const medicareModule = defineCoreModule({
  key: "medicare",
  repositories: owns<{ therapyCharges: TherapyChargeRepository }>(),
  createServices: ({ storage, clock }: ModuleDependencies<MedicareServiceRepositories>) => ({
    therapyThresholds: new TherapyThresholdService({ storage, clock }),
  }),
  errorCodes: [],
  events: MEDICARE_EVENTS,
});
