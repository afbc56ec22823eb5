import { defineKyselyModule } from "../kysely-module.js";
import { eligibilityChecksMigration } from "../migrations/031-eligibility-checks.js";
import { KyselyEligibilityCheckRepository } from "../repositories/eligibility-check-repository.js";

/** Eligibility checks of coverages. */
export const eligibilityKyselyModule = defineKyselyModule({
  key: "eligibility",
  repositories: (db, profile) => ({ eligibilityChecks: new KyselyEligibilityCheckRepository(db, profile) }),
  migrations: (profile) => ({ "031-eligibility-checks": eligibilityChecksMigration(profile) }),
  tables: ["eligibility_checks"],
});
