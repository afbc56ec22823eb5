import { defineCoreModule, type ModuleDependencies, owns } from "../kernel/module.js";
import type { PayerRepository } from "./payer-repository.js";
import type { PayerServiceRepositories } from "./payer-service-repositories.js";
import { PAYER_ERROR_CODES } from "./payer-errors.js";
import { PayerService } from "./payer-service.js";

/** The payer registry (spec 4.7 GET /v2/payers) and organisations' own payers. */
export const payersModule = defineCoreModule({
  key: "payers",
  repositories: owns<{ payers: PayerRepository }>(),
  createServices: ({ storage, clock }: ModuleDependencies<PayerServiceRepositories>) => ({
    payers: new PayerService({ storage, clock }),
  }),
  errorCodes: PAYER_ERROR_CODES,
  events: {},
});
