import { defineKyselyModule } from "../kysely-module.js";
import { eligibilityChecksMigration } from "../migrations/031-eligibility-checks.js";
import { clearinghouseSettingsMigration } from "../migrations/041-clearinghouse-settings.js";
import { KyselyClearinghouseSettingsRepository } from "../repositories/clearinghouse-settings-repository.js";
import { KyselyEligibilityCheckRepository } from "../repositories/eligibility-check-repository.js";

/** Eligibility checks of coverages, and each organisation's clearinghouse set through the API. */
export const eligibilityKyselyModule = defineKyselyModule({
  key: "eligibility",
  repositories: (db, profile) => ({
    eligibilityChecks: new KyselyEligibilityCheckRepository(db, profile),
    clearinghouseSettings: new KyselyClearinghouseSettingsRepository(db, profile),
  }),
  migrations: (profile) => ({
    "031-eligibility-checks": eligibilityChecksMigration(profile),
    "041-clearinghouse-settings": clearinghouseSettingsMigration(),
  }),
  tables: ["eligibility_checks", "clearinghouse_settings"],
});
