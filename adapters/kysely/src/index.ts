export * from "./schema.js";
export * from "./sql-dialect-profile.js";
export * from "./insert-styles.js";
export * from "./kysely-storage.js";
export * from "./read-routing.js";
export * from "./kysely-module.js";
export * from "./kysely-modules.js";
export * from "./insert-ignoring-duplicate.js";
export * from "./contention.js";
export * from "./migrations/migrate.js";
export {
  applyPatientFilters,
  containsPattern,
  PATIENT_SORT_COLUMNS,
  patientListQueries,
  rowsOfPage,
  searchTextContains,
  type PatientQueryNarrowing,
} from "./repositories/patient-repository.js";
export { patientToRow, rowToPatient } from "./repositories/patient-rows.js";

/** Node socket errors that mean the server was not reachable or the connection dropped (any engine). */
export const NETWORK_UNAVAILABLE_CODES: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);
export * from "./server-address.js";
export * from "./patient-counts.js";
export * from "./walked-search-page.js";
export { SENT_WITH_NEXT_STATEMENT } from "./deferred-appends.js";
export * from "./statements-by-shape.js";
