import { defineKyselyModule } from "../kysely-module.js";
import { billingCodesMigration } from "../migrations/009-billing-codes.js";
import { feeSchedulesMigration } from "../migrations/042-fee-schedules.js";
import { KyselyBillingCodeRepository } from "../repositories/billing-code-repository.js";
import { KyselyFeeScheduleRepository } from "../repositories/fee-schedule-repository.js";

/** The billing code catalogue and the fee schedules. */
export const billingKyselyModule = defineKyselyModule({
  key: "billing",
  repositories: (db, profile) => ({
    billingCodes: new KyselyBillingCodeRepository(db, profile),
    feeSchedules: new KyselyFeeScheduleRepository(db),
  }),
  migrations: (profile) => ({
    "009-billing-codes": billingCodesMigration(profile),
    "042-fee-schedules": feeSchedulesMigration(),
  }),
  tables: ["billing_codes", "fee_schedule_entries"],
});
