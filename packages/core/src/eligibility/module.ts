import { defineCoreModule, type ModuleDependencies, owns } from "../kernel/module.js";
import type { SecretCipher } from "../webhooks/secret-cipher.js";
import type { ClearinghouseSettingsRepository } from "./clearinghouse-settings-repository.js";
import { ClearinghouseSettingsService } from "./clearinghouse-settings-service.js";
import type { EligibilityCheckRepository } from "./eligibility-check-repository.js";
import type { EligibilityGateway } from "./eligibility-gateway.js";
import type { EligibilityServiceRepositories } from "./eligibility-service-repositories.js";
import { ELIGIBILITY_EVENTS } from "./eligibility-events.js";
import { ELIGIBILITY_ERROR_CODES } from "./eligibility-errors.js";
import { EligibilityService } from "./eligibility-service.js";

/** Eligibility of patients' coverages: real-time checks through a gateway, history, results recorded by hand. */
export const eligibilityModule = defineCoreModule({
  key: "eligibility",
  repositories: owns<{
    eligibilityChecks: EligibilityCheckRepository;
    clearinghouseSettings: ClearinghouseSettingsRepository;
  }>(),
  createServices: ({
    storage,
    clock,
    settings,
  }: ModuleDependencies<
    EligibilityServiceRepositories,
    { eligibilityGateway: EligibilityGateway | null; cipher: SecretCipher }
  >) => {
    const clearinghouses = new ClearinghouseSettingsService({
      storage,
      clock,
      cipher: settings.cipher,
      gateway: settings.eligibilityGateway,
    });
    return {
      clearinghouses,
      eligibility: new EligibilityService({
        storage,
        clock,
        gateway: settings.eligibilityGateway,
        connectionFor: (organisationId) => clearinghouses.connectionFor(organisationId),
      }),
    };
  },
  errorCodes: ELIGIBILITY_ERROR_CODES,
  events: ELIGIBILITY_EVENTS,
});
