import { defineKyselyModule } from "../kysely-module.js";
import { KyselyFhirPatientRepository } from "../repositories/fhir-patient-repository.js";

/** The FHIR R4 facade's searches over the existing tables (no table of its own). */
export const fhirKyselyModule = defineKyselyModule({
  key: "fhir",
  repositories: (db) => ({ fhirPatients: new KyselyFhirPatientRepository(db) }),
  migrations: () => ({}),
  tables: [],
});
