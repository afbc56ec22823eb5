import type { AppointmentRepository } from "../appointments/appointment-repository.js";
import type { AuditRepository } from "../audit/audit-repository.js";
import type { AuthorizationRepository, CaseRepository } from "../cases/case-repository.js";
import type { CaseVisitRepositories } from "../cases/case-visits.js";
import type { InsuranceCardRepository } from "../coverages/insurance-card-repository.js";
import type { PatientDocumentRepository } from "../documents/patient-document-repository.js";
import type { JobQueue } from "../kernel/job-queue.js";
import type { OutboxRepository } from "../kernel/outbox-repository.js";
import type { NotificationRepository } from "../notifications/notification-repository.js";
import type { OrganisationRepository } from "../organisations/organisation-repository.js";
import type { PatientRepository } from "../patients/patient-repository.js";
import type { SoapNoteRepository } from "../soap/soap-note-repository.js";
import type { StaffRepository } from "../staff/staff-repository.js";
import type { TaskRepository } from "./task-repository.js";
import type { PlanOfCareRepository } from "../soap/plan-of-care-repository.js";
import type { PayerRepository } from "../payers/payer-repository.js";

/**
 * The repositories tasks read and write through: their own, the records a task can be about (each a port of the
 * feature that owns it: tasks import them, never the reverse), the people it can be assigned to, the inbox.
 */
export interface TaskServiceRepositories extends CaseVisitRepositories {
  tasks: TaskRepository;
  patients: PatientRepository;
  organisations: OrganisationRepository;
  staff: StaffRepository;
  appointments: AppointmentRepository;
  cases: CaseRepository;
  authorizations: AuthorizationRepository;
  insuranceCards: InsuranceCardRepository;
  soapNotes: SoapNoteRepository;
  patientDocuments: PatientDocumentRepository;
  notifications: NotificationRepository;
  outbox: OutboxRepository;
  jobs: JobQueue;
  audit: AuditRepository;
  plansOfCare: PlanOfCareRepository;
  payers: PayerRepository;
}
