import { defineCoreModule, type ModuleDependencies, owns } from "../kernel/module.js";
import type { BillingCodeRepository } from "./billing-code-repository.js";
import type { ClaimRepository } from "./billing-gateway.js";
import type { BillingServiceRepositories } from "./billing-service-repositories.js";
import { BillingCatalogService } from "./billing-catalog-service.js";
import type { FeeScheduleRepository } from "./fee-schedule-repository.js";
import { FeeScheduleService } from "./fee-schedule-service.js";

/** The billing code catalogue (CPT and HCPCS codes with their timed-unit rules) and the fee schedule by year. */
export const billingModule = defineCoreModule({
  key: "billing",
  repositories: owns<{
    claims: ClaimRepository;
    billingCodes: BillingCodeRepository;
    feeSchedules: FeeScheduleRepository;
  }>(),
  createServices: ({ storage, clock }: ModuleDependencies<BillingServiceRepositories>) => ({
    billingCatalog: new BillingCatalogService({ storage, clock }),
    feeSchedules: new FeeScheduleService({ storage, clock }),
  }),
  errorCodes: [],
  events: {},
});
