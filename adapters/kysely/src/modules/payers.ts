import { defineKyselyModule } from "../kysely-module.js";
import { payersMigration } from "../migrations/020-payers.js";
import { payerMedicarePartBMigration } from "../migrations/043-payer-medicare-part-b.js";
import { KyselyPayerRepository } from "../repositories/payer-repository.js";

/** The payer registry and organisations' own payers. */
export const payersKyselyModule = defineKyselyModule({
  key: "payers",
  repositories: (db, profile) => ({ payers: new KyselyPayerRepository(db, profile) }),
  migrations: (profile) => ({
    "020-payers": payersMigration(profile),
    "043-payer-medicare-part-b": payerMedicarePartBMigration(),
  }),
  tables: ["payers"],
});
