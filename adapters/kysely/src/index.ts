export * from "./schema.js";
export * from "./sql-dialect-profile.js";
export * from "./kysely-storage.js";
export * from "./insert-ignoring-duplicate.js";
export * from "./migrations/migrate.js";
export { containsPattern, PATIENT_SORT_COLUMNS } from "./repositories/patient-repository.js";
export { patientToRow, rowToPatient } from "./repositories/patient-rows.js";
