import { defineKyselyModule } from "../kysely-module.js";
import { KyselyPatientRepository } from "../repositories/patient-repository.js";

/** The patient registry (its table is created by the foundation migration; engines add their search index as 003-<engine>). */
export const patientsKyselyModule = defineKyselyModule({
  key: "patients",
  repositories: (db, profile) => ({
    patients: new KyselyPatientRepository(db, profile),
  }),
  migrations: () => ({}),
  tables: ["patients"],
});
