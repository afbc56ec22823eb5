import { defineKyselyModule } from "../kysely-module.js";
import { billingCodesMigration } from "../migrations/009-billing-codes.js";
import { KyselyBillingCodeRepository } from "../repositories/billing-code-repository.js";

/** The billing code catalogue. */
export const billingKyselyModule = defineKyselyModule({
  key: "billing",
  repositories: (db, profile) => ({
    billingCodes: new KyselyBillingCodeRepository(db, profile),
  }),
  migrations: (profile) => ({
    "009-billing-codes": billingCodesMigration(profile),
  }),
  tables: ["billing_codes"],
});
