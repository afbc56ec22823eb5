import type { AppointmentRepository } from "../appointments/appointment-repository.js";
import type { BillingCodeRepository } from "../billing/billing-code-repository.js";
import type { ClaimRepository } from "../billing/billing-gateway.js";
import type { AuthorizationRepository, CaseRepository } from "../cases/case-repository.js";
import type { PatientDocumentRepository } from "../documents/patient-document-repository.js";
import type { InsuranceCardRepository } from "../coverages/insurance-card-repository.js";
import type { JobQueue } from "../kernel/job-queue.js";
import type { OutboxRepository } from "../kernel/outbox-repository.js";
import type { OrganisationRepository } from "../organisations/organisation-repository.js";
import type { PatientRepository } from "../patients/patient-repository.js";
import type { PlanOfCareRepository } from "./plan-of-care-repository.js";
import type { SoapDocumentRepository } from "./soap-document-repository.js";
import type { SoapNoteRepository } from "./soap-note-repository.js";
import type { TreatmentSheetRepository } from "./treatment-sheet-repository.js";
import type { MedicareServiceRepositories } from "../medicare/medicare-service-repositories.js";

/** The repositories SOAP notes, treatment sheets, plans of care and summaries read and write through: each a port of the feature that owns it. */
export interface SoapServiceRepositories extends MedicareServiceRepositories {
  soapNotes: SoapNoteRepository;
  treatmentSheets: TreatmentSheetRepository;
  plansOfCare: PlanOfCareRepository;
  soapDocuments: SoapDocumentRepository;
  claims: ClaimRepository;
  billingCodes: BillingCodeRepository;
  cases: CaseRepository;
  authorizations: AuthorizationRepository;
  insuranceCards: InsuranceCardRepository;
  appointments: AppointmentRepository;
  patients: PatientRepository;
  organisations: OrganisationRepository;
  outbox: OutboxRepository;
  jobs: JobQueue;
  /** Where a rendered summary is listed among the patient's documents (category visit_summary). */
  patientDocuments: PatientDocumentRepository;
}
