import type { SummaryStatus } from "./summary-status.js";

/** Note types spec 2.1 names; attributes.subType may override (spec 4.1 rule 1). */
export const SOAP_NOTE_TYPES = [
  "INITIAL_SOAP",
  "FOLLOWUP_SOAP",
  "ADDENDUM",
  "DISCHARGE_NOTE",
  "PROGRESS_REPORT",
] as const;
export type SoapNoteType = (typeof SOAP_NOTE_TYPES)[number];

/** The real service's statuses (issue 7): INCOMPLETED on creation, COSIGN awaiting co-signature, REVISION sent back, COMPLETED. */
export const SOAP_NOTE_STATUSES = ["INCOMPLETED", "COSIGN", "REVISION", "COMPLETED"] as const;
export type SoapNoteStatus = (typeof SOAP_NOTE_STATUSES)[number];

/** attributes.subType values that change the stored type (spec 4.1 rule 1). */
export const SUBTYPE_OVERRIDES: Readonly<Record<string, SoapNoteType>> = Object.freeze({
  RE_EVALUATION: "INITIAL_SOAP",
  /** A visit's note that is also the Medicare progress report (docs/medicare-therapy.md). */
  PROGRESS_NOTE: "PROGRESS_REPORT",
  simpleDischargeNote: "DISCHARGE_NOTE",
});

/** The form sections every note has. */
export const SOAP_SECTIONS = ["Subjective", "Objective", "Assessment", "Plan"] as const;
export type SoapSection = (typeof SOAP_SECTIONS)[number];

/** The Assessment's section key holding the diagnoses (response.Assessment.<key>). */
export const ASSESSMENT_DIAGNOSIS_KEY = "diagnosis";

export interface SoapNote {
  id: number;
  /** The public id used in every later call. */
  contextId: string;
  organisationId: number;
  clinicId: number;
  patientId: number;
  serviceCaseId: number | null;
  caseTitle: string | null;
  appointmentId: number | null;
  type: SoapNoteType;
  category: string | null;
  serviceDateTime: Date;
  entryDateTime: Date;
  status: SoapNoteStatus;
  completed: boolean;
  completedAt: Date | null;
  renderingPhysician: number;
  supervisingPhysician: number | null;
  submissionIds: Record<SoapSection, string>;
  treatmentSheetId: number;
  planOfCareId: number | null;
  submitForBilling: boolean;
  /** null until completion; then the BillingGateway's status (SUBMITTED) or NOT_SUBMITTED when the organisation does not auto-submit. */
  billingStatus: string | null;
  summaryDocUrl: string | null;
  shortSummaryUrl: string | null;
  /** The PDF summary's state (summary-status.ts); null or absent until the note is completed. */
  summaryStatus?: SummaryStatus | null;
  /** Why the summary is FAILED; null otherwise. */
  summaryFailure?: string | null;
  soapWithoutAppointment: boolean;
  parent: string | null;
  dataCarryForwardFrom: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface SoapNoteDraft {
  patientId: number;
  type: string;
  appointmentId?: number | null;
  category?: string | null;
  serviceCaseId?: number | null;
  attributes?: { subType?: string | null | undefined } | null;
  parent?: string | null;
  soapWithoutAppointment?: boolean;
  dataCarryForwardFrom?: string | null;
}

/** One section's form: its answers and a version that every write must advance by exactly one. */
export interface FormSubmission {
  id: string;
  organisationId: number;
  contextId: string;
  section: SoapSection;
  version: number;
  response: Record<string, unknown>;
  updatedAt: Date;
}

/** A diagnosis entry of the Assessment (spec 2.2). */
export interface DiagnosisEntry {
  uuid: string;
  id: number;
  code: string;
  description: string;
  revision: "ICD10";
  billing_type: string | null;
  is_primary: boolean | null;
}
