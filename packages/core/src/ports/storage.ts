import type { Storage as StoragePort } from "../kernel/storage.js";
import type { AppointmentRepository } from "../appointments/appointment-repository.js";
import type {
  AuthorizationRepository,
  CaseRepository,
  ReferringPhysicianRepository,
} from "../cases/case-repository.js";
import type { InsuranceCardRepository } from "../coverages/insurance-card-repository.js";
import type { CatalogRepository } from "../catalog/catalog-repository.js";
import type { BillingCodeRepository } from "../billing/billing-code-repository.js";
import type { IcdRepository } from "../icd/icd-repository.js";
import type { SoapNoteRepository } from "../soap/soap-note-repository.js";
import type { TreatmentSheetRepository } from "../soap/treatment-sheet-repository.js";
import type { PlanOfCareRepository } from "../soap/plan-of-care-repository.js";
import type { SoapDocumentRepository } from "../soap/soap-document-repository.js";
import type { ClaimRepository } from "../billing/billing-gateway.js";
import type { WebhookRepository } from "../webhooks/webhook-repository.js";
import type { NotificationRepository } from "../notifications/notification-repository.js";
import type { JobQueue, LockStore } from "../kernel/job-queue.js";
import type { OrganisationRepository } from "../organisations/organisation-repository.js";
import type { OutboxRepository } from "../kernel/outbox-repository.js";
import type { PatientRepository } from "../patients/patient-repository.js";
import type { RateLimitStore } from "../rate-limits/rate-limit-store.js";
import type { PayerRepository } from "../payers/payer-repository.js";
import type { StaffRepository } from "../staff/staff-repository.js";
import type { ScheduleRepository } from "../scheduling/schedule-repository.js";
import type { BlockRepository } from "../scheduling/block-repository.js";
import type { WaitlistRepository } from "../waitlist/waitlist-repository.js";
import type { EligibilityCheckRepository } from "../eligibility/eligibility-check-repository.js";
import type { ApiClientRepository } from "../access/api-client-repository.js";
import type { AuditRepository } from "../audit/audit-repository.js";

/** The repositories a unit of work can touch. */
export interface Repositories {
  organisations: OrganisationRepository;
  catalog: CatalogRepository;
  patients: PatientRepository;
  appointments: AppointmentRepository;
  cases: CaseRepository;
  referringPhysicians: ReferringPhysicianRepository;
  insuranceCards: InsuranceCardRepository;
  authorizations: AuthorizationRepository;
  webhooks: WebhookRepository;
  notifications: NotificationRepository;
  soapNotes: SoapNoteRepository;
  treatmentSheets: TreatmentSheetRepository;
  plansOfCare: PlanOfCareRepository;
  soapDocuments: SoapDocumentRepository;
  claims: ClaimRepository;
  icd: IcdRepository;
  billingCodes: BillingCodeRepository;
  staff: StaffRepository;
  payers: PayerRepository;
  apiClients: ApiClientRepository;
  audit: AuditRepository;
  schedules: ScheduleRepository;
  blocks: BlockRepository;
  waitlist: WaitlistRepository;
  eligibilityChecks: EligibilityCheckRepository;
  outbox: OutboxRepository;
  rateLimits: RateLimitStore;
  jobs: JobQueue;
  locks: LockStore;
}

/** The storage port over every repository: what an adapter implements and createPractice takes. */
export type Storage<R extends object = Repositories> = StoragePort<R>;

export { readsFor } from "../kernel/storage.js";
export type { PoolStats, ReplicaHealth, StorageCapabilities } from "../kernel/storage.js";
