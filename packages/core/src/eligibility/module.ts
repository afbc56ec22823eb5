import { defineCoreModule, type ModuleDependencies, owns } from "../kernel/module.js";
import type { EligibilityCheckRepository } from "./eligibility-check-repository.js";
import type { EligibilityGateway } from "./eligibility-gateway.js";
import type { EligibilityServiceRepositories } from "./eligibility-service-repositories.js";
import { ELIGIBILITY_EVENTS } from "./eligibility-events.js";
import { ELIGIBILITY_ERROR_CODES } from "./eligibility-errors.js";
import { EligibilityService } from "./eligibility-service.js";

/** Eligibility of patients' coverages: real-time checks through a gateway, history, results recorded by hand. */
export const eligibilityModule = defineCoreModule({
  key: "eligibility",
  repositories: owns<{ eligibilityChecks: EligibilityCheckRepository }>(),
  createServices: ({
    storage,
    clock,
    settings,
  }: ModuleDependencies<EligibilityServiceRepositories, { eligibilityGateway: EligibilityGateway | null }>) => ({
    eligibility: new EligibilityService({ storage, clock, gateway: settings.eligibilityGateway }),
  }),
  errorCodes: ELIGIBILITY_ERROR_CODES,
  events: ELIGIBILITY_EVENTS,
});
