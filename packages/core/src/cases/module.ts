import { defineCoreModule, type ModuleDependencies, owns } from "../kernel/module.js";
import type { AuthorizationRepository, CaseRepository, ReferringPhysicianRepository } from "./case-repository.js";
import type { CaseServiceRepositories } from "./case-service-repositories.js";
import { AuthorizationService } from "./authorization-service.js";
import { CASE_ERROR_CODES } from "./case-errors.js";
import { AUTHORIZATION_EVENTS, CASE_EVENTS } from "./case-events.js";
import { CaseService } from "./case-service.js";
import { CoverageCaseService } from "./coverage-case-service.js";
import { IcdService } from "../icd/icd-search-service.js";
import { InsuranceCardService } from "./insurance-card-service.js";
import { ReferringPhysicianService } from "./referring-physician-service.js";

/** Cases with their insurance cards, referring physicians and authorizations. */
export const casesModule = defineCoreModule({
  key: "cases",
  repositories: owns<{
    cases: CaseRepository;
    referringPhysicians: ReferringPhysicianRepository;
    authorizations: AuthorizationRepository;
  }>(),
  createServices: ({ storage, clock }: ModuleDependencies<CaseServiceRepositories>) => {
    const cases = new CaseService({ storage, clock });
    return {
      cases,
      // The code set is shared reference data: its own service over the same storage.
      coverageCases: new CoverageCaseService({ storage, cases, icd: new IcdService({ storage }) }),
      referringPhysicians: new ReferringPhysicianService({ storage, clock }),
      insuranceCards: new InsuranceCardService({ storage, clock }),
      authorizations: new AuthorizationService({ storage, clock }),
    };
  },
  errorCodes: CASE_ERROR_CODES,
  events: { ...CASE_EVENTS, ...AUTHORIZATION_EVENTS },
});
