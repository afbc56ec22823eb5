import type { Generated } from "kysely";

export interface SoapNotesTable {
  id: Generated<number>;
  context_id: string;
  organisation_id: number;
  clinic_id: number;
  patient_id: number;
  service_case_id: number | null;
  case_title: string | null;
  appointment_id: number | null;
  note_type: string;
  category: string | null;
  service_date_time: string;
  entry_date_time: string;
  status: string;
  completed: number;
  completed_at: string | null;
  rendering_physician: number;
  supervising_physician: number | null;
  /** JSON object section → submission id. */
  submission_ids: string;
  treatment_sheet_id: number;
  plan_of_care_id: number | null;
  submit_for_billing: number;
  summary_doc_url: string | null;
  short_summary_url: string | null;
  summary_status: string | null;
  summary_failure: string | null;
  soap_without_appointment: number;
  parent: string | null;
  data_carry_forward_from: string | null;
  created_at: string;
  updated_at: string;
  /** Migration 010: null until completion. */
  billing_status: string | null;
  /** Bumped by SoapNoteRepository.lockNote: the row lock that serialises status actions (migration 010). */
  row_lock: Generated<number>;
}

export interface SoapSignaturesTable {
  id: Generated<number>;
  organisation_id: number;
  context_id: string;
  role: string;
  user_id: number;
  content_hash: string;
  signed_at: string;
  revoked_at: string | null;
  revoked_reason: string | null;
}

export interface SoapNoteHistoryTable {
  id: Generated<number>;
  organisation_id: number;
  context_id: string;
  action: string;
  from_status: string | null;
  to_status: string;
  actor_user_id: number | null;
  at: string;
  /** JSON object. */
  details: string;
}

export interface TreatmentSheetsTable {
  id: Generated<number>;
  organisation_id: number;
  context_id: string;
  patient_id: number;
  /** JSON array of treatment lines. */
  treatments: string;
  created_at: string;
  updated_at: string;
}

export interface ClaimsTable {
  id: Generated<number>;
  organisation_id: number;
  context_id: string;
  patient_id: number;
  service_case_id: number | null;
  service_date: string;
  rendering_physician: number;
  /** JSON arrays. */
  diagnosis_codes: string;
  lines: string;
  status: string;
  created_at: string;
}

export interface PlansOfCareTable {
  id: Generated<number>;
  organisation_id: number;
  patient_id: number;
  /** The case id, or 0 for a patient's plan without a case. */
  case_key: number;
  source_context_id: string;
  /** JSON arrays. */
  diagnoses: string;
  goals: string;
  frequency_and_duration: string | null;
  /** The Plan form's medical-necessity justification (migration 044). */
  medical_necessity: string | null;
  /** PT, OT or SLP (migration 046). */
  discipline: string | null;
  /** YYYY-MM-DD the physician or NPP signed the certification (migration 046). */
  certified_on: string | null;
  certified_by: string | null;
  certification_start: string;
  certification_end: string;
  version: number;
  created_at: string;
  updated_at: string;
}

export interface SoapDocumentsTable {
  organisation_id: number;
  context_id: string;
  variant: string;
  content_type: string;
  content: Uint8Array;
  created_at: string;
}

export interface FormSubmissionsTable {
  id: string;
  organisation_id: number;
  context_id: string;
  section: string;
  version: number;
  /** JSON document. */
  response: string;
  updated_at: string;
}

/** The soap domain's tables by name: its line in `Database` (schema.ts). */
export interface SoapSchema {
  soap_notes: SoapNotesTable;
  form_submissions: FormSubmissionsTable;
  soap_signatures: SoapSignaturesTable;
  soap_note_history: SoapNoteHistoryTable;
  treatment_sheets: TreatmentSheetsTable;
  claims: ClaimsTable;
  plans_of_care: PlansOfCareTable;
  soap_documents: SoapDocumentsTable;
}
