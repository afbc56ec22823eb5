import { defineKyselyModule } from "../kysely-module.js";
import { casesMigration } from "../migrations/005-cases.js";
import { coverageDetailsMigration } from "../migrations/029-coverage-details.js";
import { authorizationCoverageMigration } from "../migrations/030-authorization-coverage.js";
import { KyselyAuthorizationRepository } from "../repositories/authorization-repository.js";
import { KyselyCaseRepository } from "../repositories/case-repository.js";
import { KyselyInsuranceCardRepository } from "../repositories/insurance-card-repository.js";
import { KyselyReferringPhysicianRepository } from "../repositories/referring-physician-repository.js";

/** Cases, insurance cards, referring physicians and authorizations. */
export const casesKyselyModule = defineKyselyModule({
  key: "cases",
  repositories: (db, profile) => ({
    cases: new KyselyCaseRepository(db, profile),
    referringPhysicians: new KyselyReferringPhysicianRepository(db, profile),
    insuranceCards: new KyselyInsuranceCardRepository(db, profile),
    authorizations: new KyselyAuthorizationRepository(db, profile),
  }),
  migrations: (profile) => ({
    "005-cases": casesMigration(profile),
    "029-coverage-details": coverageDetailsMigration(profile),
    "030-authorization-coverage": authorizationCoverageMigration(profile),
  }),
  tables: ["referring_physicians", "insurance_cards", "cases", "authorizations"],
});
