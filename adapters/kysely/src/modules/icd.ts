import { defineKyselyModule } from "../kysely-module.js";
import { icdMigration } from "../migrations/008-icd.js";
import { icdWordRankMigration } from "../migrations/012-icd-word-rank.js";
import { icdYearsMigration } from "../migrations/025-icd-years.js";
import { KyselyIcdRepository } from "../repositories/icd-repository.js";

/** The ICD-10-CM codes and their search words. */
export const icdKyselyModule = defineKyselyModule({
  key: "icd",
  repositories: (db, profile) => ({
    icd: new KyselyIcdRepository(db, profile),
  }),
  migrations: (profile) => ({
    "008-icd": icdMigration(),
    "012-icd-word-rank": icdWordRankMigration(profile),
    "025-icd-years": icdYearsMigration(),
  }),
  tables: ["icd_codes", "icd_words", "icd_years"],
});
