export * from "./schema.js";
export * from "./db-time.js";
// Each domain's table types (the rows repositories read and write), public as they were in schema.ts.
export * from "./tables/foundation.js";
export * from "./tables/patients.js";
export * from "./tables/appointments.js";
export * from "./tables/cases.js";
export * from "./tables/webhooks.js";
export * from "./tables/notifications.js";
export * from "./tables/soap.js";
export * from "./tables/icd.js";
export * from "./tables/billing.js";
export * from "./tables/staff.js";
export * from "./tables/payers.js";
export * from "./tables/access.js";
export * from "./tables/audit.js";
export * from "./tables/scheduling.js";
export * from "./tables/waitlist.js";
export * from "./tables/eligibility.js";
export * from "./sql-dialect-profile.js";
export * from "./insert-styles.js";
export * from "./kysely-storage.js";
export * from "./read-routing.js";
export * from "./kysely-module.js";
export * from "./kysely-modules.js";
export * from "./insert-ignoring-duplicate.js";
export * from "./contention.js";
export * from "./migrate.js";
export {
  applyPatientFilters,
  PATIENT_SORT_COLUMNS,
  patientListQueries,
  rowsOfPage,
  searchTextContains,
  type PatientQueryNarrowing,
} from "./repositories/patient-repository.js";
export { containsPattern } from "./repositories/contains-pattern.js";
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
export { SENT_WITH_NEXT_STATEMENT } from "./sent-with-next.js";
export * from "./statements-by-shape.js";
