import { defineKyselyModule } from "../kysely-module.js";
import { therapyChargesMigration } from "../migrations/045-therapy-charges.js";
import { KyselyTherapyChargeRepository } from "../repositories/therapy-charge-repository.js";

/** The ledger of amounts counted towards Medicare therapy thresholds. */
export const medicareKyselyModule = defineKyselyModule({
  key: "medicare",
  repositories: (db, profile) => ({ therapyCharges: new KyselyTherapyChargeRepository(db, profile) }),
  migrations: (profile) => ({ "045-therapy-charges": therapyChargesMigration(profile) }),
  tables: ["therapy_charges"],
});
