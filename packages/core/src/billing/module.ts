import { defineCoreModule, type ModuleDependencies, owns } from "../kernel/module.js";
import type { BillingCodeRepository } from "./billing-code-repository.js";
import type { ClaimRepository } from "./billing-gateway.js";
import type { BillingServiceRepositories } from "./billing-service-repositories.js";
import { BillingCatalogService } from "./billing-catalog-service.js";

/** The billing code catalogue (CPT and HCPCS codes with their timed-unit rules). */
export const billingModule = defineCoreModule({
  key: "billing",
  repositories: owns<{ claims: ClaimRepository; billingCodes: BillingCodeRepository }>(),
  createServices: ({ storage, clock }: ModuleDependencies<BillingServiceRepositories>) => ({
    billingCatalog: new BillingCatalogService({ storage, clock }),
  }),
  errorCodes: [],
  events: {},
});
