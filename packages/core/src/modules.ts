import type { EventDefinitionsOf, OptionDescriptorsOf, RepositoriesOf, ServicesOf } from "./kernel/module-list.js";
import type { Storage as StoragePort } from "./kernel/storage.js";
import { accessModule } from "./access/module.js";
import { auditModule } from "./audit/module.js";
import { appointmentsModule } from "./appointments/module.js";
import { billingModule } from "./billing/module.js";
import { casesModule } from "./cases/module.js";
import { coveragesModule } from "./coverages/module.js";
import { eligibilityModule } from "./eligibility/module.js";
import { catalogModule } from "./catalog/module.js";
import { icdModule } from "./icd/module.js";
import { notificationsModule } from "./notifications/module.js";
import { organisationsModule } from "./organisations/module.js";
import { patientsModule } from "./patients/module.js";
import { payersModule } from "./payers/module.js";
import { rateLimitsModule } from "./rate-limits/module.js";
import { soapModule } from "./soap/module.js";
import { schedulingModule } from "./scheduling/module.js";
import { staffModule } from "./staff/module.js";
import { systemModule } from "./system/module.js";
import { waitlistModule } from "./waitlist/module.js";
import { webhooksModule } from "./webhooks/module.js";
import { documentsModule } from "./documents/module.js";
import { tasksModule } from "./tasks/module.js";
import { ssoModule } from "./sso/module.js";
import { medicareModule } from "./medicare/module.js";
import { fhirModule } from "./fhir/module.js";
import { bulkExportModule } from "./bulk-export/module.js";

/**
 * Every domain of core, in one list: the storage port (Repositories), the
 * Practice's services and options, the error catalogue, the event catalogue
 * and the job table are built from it. A new domain adds its module at the
 * end (the order is the catalogues' order) and re-exports its public names
 * at the end of this file; the other layers' lists are packages/http's http-modules.ts,
 * adapters/kysely's kysely-modules.ts and schema.ts, and the adapter kit's
 * domains.ts.
 */
export const coreModules = [
  systemModule,
  organisationsModule,
  rateLimitsModule,
  catalogModule,
  patientsModule,
  appointmentsModule,
  casesModule,
  webhooksModule,
  notificationsModule,
  soapModule,
  icdModule,
  billingModule,
  staffModule,
  payersModule,
  accessModule,
  auditModule,
  schedulingModule,
  waitlistModule,
  coveragesModule,
  eligibilityModule,
  documentsModule,
  tasksModule,
  ssoModule,
  medicareModule,
  fhirModule,
  bulkExportModule,
] as const;

type CoreModules = typeof coreModules;

/** The services of every module, by property name (practice.patients, practice.soapNotes, …). */
export type PracticeServices = ServicesOf<CoreModules>;

/** Every module's event definitions, merged by event type. */
export type EventDefinitions = EventDefinitionsOf<CoreModules>;

/** The repositories every module owns, merged: the storage port an adapter implements. */
type ModuleRepositories = RepositoriesOf<CoreModules>;

/**
 * The repositories a unit of work can touch: each module's own (its feature folder declares the port), merged
 * from the module list. A storage adapter provides every one of them.
 */
export interface Repositories extends ModuleRepositories {}

/** The storage port over every repository: what an adapter implements and createPractice takes. */
export type Storage<R extends object = Repositories> = StoragePort<R>;

/** Every module's scalar options of createPractice, by name. */
export type ModuleOptionDescriptors = OptionDescriptorsOf<CoreModules>;

// A domain's public names reach the package's index through this file: a new domain re-exports them below
// (`export * from "./<domain>/<domain>-service.js";`), so index.ts stays as it is.
export * from "./documents/document-store.js";
export * from "./documents/malware-scanner.js";
export * from "./documents/patient-document.js";
export * from "./documents/patient-document-repository.js";
export * from "./documents/patient-document-service.js";
export * from "./documents/document-status-transitions.js";
export * from "./documents/sealed-content.js";
export * from "./documents/document-keys.js";
export { DOCUMENT_ERROR_CODES } from "./documents/patient-document-errors.js";
export { DOCUMENT_EVENTS } from "./documents/patient-document-events.js";
export * from "./tasks/task.js";
export * from "./tasks/task-repository.js";
export * from "./tasks/task-service.js";
export * from "./tasks/task-rule-service.js";
export * from "./tasks/task-status-transitions.js";
export * from "./tasks/task-raising-rules.js";
export { parseTaskTime } from "./tasks/task-input.js";
export { TASK_ERROR_CODES } from "./tasks/task-errors.js";
export { TASK_EVENTS } from "./tasks/task-events.js";
export * from "./medicare/therapy-thresholds.js";
export * from "./medicare/therapy-charge.js";
export * from "./medicare/therapy-discipline.js";
export * from "./medicare/plan-certification.js";
export * from "./medicare/therapy-charge-repository.js";
export * from "./medicare/visit-thresholds.js";
export * from "./medicare/therapy-threshold-service.js";
export { MEDICARE_EVENTS } from "./medicare/medicare-events.js";
export * from "./fhir/fhir-patient-search.js";
export * from "./fhir/fhir-search-values.js";
export * from "./fhir/fhir-search-service.js";
export * from "./fhir/recorded-diagnoses.js";
export { FHIR_ERROR_CODES, fhirError as fhirDomainError } from "./fhir/fhir-errors.js";
export * from "./access/client-jwks.js";
export * from "./access/client-assertion-repository.js";
export * from "./fhir/resources/fhir-json.js";
export * from "./fhir/resources/fhir-systems.js";
export * from "./fhir/resources/patient.js";
export * from "./fhir/resources/directory.js";
export * from "./fhir/resources/appointment.js";
export * from "./fhir/resources/coverage.js";
export * from "./fhir/resources/clinical.js";
export * from "./fhir/resources/scheduling.js";
export * from "./fhir/resources/document.js";
export * from "./bulk-export/bulk-export.js";
export * from "./bulk-export/bulk-export-repository.js";
export * from "./bulk-export/bulk-export-service.js";
export * from "./bulk-export/bulk-export-transitions.js";
export { BULK_EXPORT_ERROR_CODES, bulkExportError } from "./bulk-export/bulk-export-errors.js";
