import { defineCoreModule, type ModuleDependencies, owns } from "../kernel/module.js";
import type { CoverageServiceRepositories } from "./coverage-service-repositories.js";
import type { InsuranceCardRepository } from "./insurance-card-repository.js";
import { COVERAGE_EVENTS } from "./coverage-events.js";
import { COVERAGE_ERROR_CODES } from "./coverage-errors.js";
import { CoverageService } from "./coverage-service.js";

/** Patients' coverages (spec 4.7 v2): the insurance cards of v1, with the rest of a coverage's fields. */
export const coveragesModule = defineCoreModule({
  key: "coverages",
  repositories: owns<{ insuranceCards: InsuranceCardRepository }>(),
  createServices: ({ storage, clock }: ModuleDependencies<CoverageServiceRepositories>) => ({
    coverages: new CoverageService({ storage, clock }),
  }),
  errorCodes: COVERAGE_ERROR_CODES,
  events: COVERAGE_EVENTS,
});
