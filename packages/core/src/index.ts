export * from "./modules.js";
// The kernel every feature builds on: the module descriptor, options, events, the storage port's generic form.
export * from "./kernel/module.js";
export * from "./kernel/module-list.js";
export * from "./kernel/options.js";
export * from "./kernel/events.js";
export * from "./kernel/event-catalogue.js";
export { errorsOf, type DomainErrorFactory, type ErrorDetails, type ValidationIssue } from "./kernel/domain-error.js";
export { systemError } from "./kernel/system-errors.js";
// The composition root: the error and event catalogues, the options, built from the module list.
export {
  DomainError,
  type DomainErrorClass,
  domainEvent,
  type DomainEvent,
  type ErrorCode,
  errorCodes,
  eventDataSchema,
  type EventData,
  eventDescriptions,
  eventPayloadFields,
  type EventType,
  isDomainError,
  isEventType,
  sampleEventData,
} from "./catalogues.js";
export { type ModuleOptions, type PracticeEnvironmentSettings, practiceOptionDescriptors } from "./practice-options.js";
export * from "./practice-keys.js";
export * from "./practice-settings.js";
export * from "./outbound-slot.js";
export * from "./soap/summary-link.js";
export * from "./kernel/clock.js";
export * from "./kernel/ids.js";
export * from "./kernel/paging.js";
export * from "./kernel/patch.js";
export * from "./kernel/rule-checks.js";
export * from "./kernel/json-depth.js";
export * from "./auth/principal.js";
export * from "./auth/clinic-access.js";
export * from "./organisations/organisation.js";
export * from "./organisations/plan-limits.js";
export * from "./organisations/npi.js";
export * from "./organisations/directory-service.js";
export * from "./catalog/catalog.js";
export * from "./catalog/catalog-service.js";
export * from "./appointments/appointment.js";
export * from "./appointments/appointment-rules.js";
export * from "./appointments/appointment-list-query.js";
export * from "./appointments/appointment-state-machine.js";
export * from "./appointments/appointment-service.js";
export * from "./appointments/freed-time.js";
export * from "./cases/patient-case.js";
export * from "./cases/payment-mode.js";
export * from "./kernel/service-case-id.js";
export * from "./coverages/coverage.js";
export * from "./kernel/stored-id.js";
export * from "./cases/referring-physician.js";
export * from "./cases/authorization.js";
export * from "./cases/case-rules.js";
export * from "./cases/referring-physician-rules.js";
export * from "./cases/authorization-rules.js";
export * from "./cases/visit-tracking.js";
export * from "./cases/case-service.js";
export * from "./cases/coverage-case-service.js";
export * from "./eligibility/eligibility.js";
export * from "./eligibility/eligibility-rules.js";
export * from "./eligibility/eligibility-warnings.js";
export * from "./eligibility/eligibility-service.js";
export * from "./eligibility/eligibility-gateway.js";
export * from "./eligibility/eligibility-check-repository.js";
export * from "./cases/referring-physician-service.js";
export * from "./cases/insurance-card-service.js";
export * from "./cases/authorization-service.js";
export * from "./patients/patient.js";
export * from "./patients/patient-normalisation.js";
export * from "./kernel/text-match.js";
export * from "./patients/patient-rules.js";
export * from "./kernel/calendar-date.js";
export * from "./patients/patient-list-query.js";
export * from "./patients/patient-service.js";
export * from "./rate-limits/rate-limiter.js";
export * from "./rate-limits/rate-limit-decision.js";
export { RateLimitExceeded } from "./rate-limits/rate-limit-errors.js";
export { type PoolStats, readsFor, type ReplicaHealth, type StorageCapabilities } from "./kernel/storage.js";
export * from "./storage-engine.js";
export * from "./kernel/job-handler.js";
export * from "./patients/patient-repository.js";
export * from "./appointments/appointment-repository.js";
export * from "./cases/case-repository.js";
export * from "./coverages/insurance-card-repository.js";
export * from "./webhooks/webhook-repository.js";
export * from "./soap/soap-note-repository.js";
export * from "./icd/icd-repository.js";
export * from "./billing/billing-code-repository.js";
export * from "./billing/billing-code.js";
export * from "./billing/billing-catalog-service.js";
export * from "./icd/icd-code.js";
export * from "./icd/icd-search-service.js";
export * from "./soap/soap-note.js";
export * from "./soap/soap-rules.js";
export * from "./soap/form-paths.js";
export * from "./soap/soap-note-service.js";
export * from "./soap/soap-signature.js";
export * from "./soap/soap-note-content.js";
export * from "./soap/medical-record.js";
export * from "./soap/soap-note-transitions.js";
export * from "./soap/note-locks.js";
export * from "./soap/treatment-sheet.js";
export * from "./soap/billing-units.js";
export * from "./soap/treatment-sheet-rules.js";
export * from "./soap/treatment-sheet-service.js";
export * from "./soap/plan-of-care.js";
export * from "./soap/soap-summary.js";
export * from "./soap/summary-status.js";
export * from "./soap/soap-workflow-service.js";
export * from "./soap/soap-document-service.js";
export * from "./billing/claim.js";
export * from "./billing/stored-claims-gateway.js";
export * from "./billing/billing-gateway.js";
export * from "./soap/treatment-sheet-repository.js";
export * from "./soap/plan-of-care-repository.js";
export * from "./soap/soap-document-repository.js";
export * from "./organisations/documentation-settings.js";
export * from "./organisations/billing-unit-rule.js";
export * from "./cases/case-visits.js";
export * from "./webhooks/webhook-subscription.js";
export * from "./webhooks/webhook-delivery.js";
export * from "./webhooks/webhook-rules.js";
export * from "./webhooks/webhook-signature.js";
export * from "./webhooks/secret-cipher.js";
export * from "./webhooks/delivery-schedule.js";
export * from "./webhooks/webhook-service.js";
export * from "./webhooks/delivery-service.js";
export * from "./kernel/outbound-url.js";
export * from "./kernel/outbound-address.js";
export * from "./notifications/notification.js";
export * from "./notifications/notification-rules.js";
export * from "./notifications/push-transport.js";
export * from "./notifications/push-outcome.js";
export * from "./notifications/device-service.js";
export * from "./notifications/notification-service.js";
export * from "./notifications/delivery-service.js";
export * from "./notifications/notification-repository.js";
export * from "./organisations/organisation-repository.js";
export * from "./catalog/catalog-repository.js";
export * from "./kernel/outbox-repository.js";
export * from "./rate-limits/rate-limit-store.js";
export * from "./kernel/job-queue.js";
export * from "./practice.js";
export * from "./staff/staff.js";
export * from "./staff/staff-service.js";
export * from "./staff/staff-repository.js";
export * from "./organisations/clinic-rules.js";
export * from "./organisations/clinic-service.js";
export * from "./organisations/provider-rules.js";
export * from "./organisations/provider-service.js";
export * from "./catalog/catalog-rules.js";
export * from "./catalog/catalog-admin-service.js";
export * from "./payers/payer.js";
export * from "./payers/payer-service.js";
export * from "./payers/payer-repository.js";
export * from "./access/access-errors.js";
export * from "./access/api-client.js";
export * from "./access/api-client-service.js";
export * from "./access/client-auth-throttle.js";
export * from "./access/client-secret.js";
export * from "./access/concurrency-limit.js";
export * from "./access/organisation-access.js";
export * from "./access/organisation-admin-service.js";
export * from "./access/api-client-repository.js";
export * from "./audit/audit-event.js";
export * from "./audit/audit-scope.js";
export * from "./audit/audit-service.js";
export * from "./audit/audit-repository.js";
// Scheduling rules (working hours, bookable slots): pure functions over time zones and recurrence rules.
export * from "./scheduling/index.js";
export * from "./scheduling/schedule-repository.js";
export * from "./scheduling/block-repository.js";
export * from "./waitlist/waitlist.js";
export * from "./waitlist/waitlist-rules.js";
export * from "./waitlist/waitlist-state-machine.js";
export * from "./waitlist/waitlist-service.js";
export { WAITLIST_OFFER_EXPIRY_QUEUE, WaitlistMatcher } from "./waitlist/waitlist-matcher.js";
export * from "./waitlist/waitlist-repository.js";
export * from "./coverages/coverage-rules.js";
export * from "./coverages/coverage-service.js";
