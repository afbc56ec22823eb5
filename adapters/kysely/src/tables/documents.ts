import type { Generated } from "kysely";

export interface PatientDocumentsTable {
  id: Generated<number>;
  organisation_id: number;
  patient_id: number;
  category: string;
  title: string;
  description: string | null;
  document_date: string | null;
  /** document_date, else the upload's UTC day: what the list's date range filters on. */
  listed_on: string;
  case_id: number | null;
  appointment_id: number | null;
  clinic_id: number | null;
  /** upload | soap_summary */
  source: string;
  soap_context_id: string | null;
  file_name: string;
  media_type: string;
  size_bytes: number;
  sha256: string;
  storage_key: string | null;
  wrapped_key: string | null;
  status: string;
  scan_result: string;
  scan_signature: string | null;
  scanned_at: string | null;
  uploaded_by_user_id: number | null;
  uploaded_by_client_id: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  purge_after: string | null;
}

export interface PatientDocumentSettingsTable {
  organisation_id: number;
  retention_days: number;
  /** JSON array of the organisation's own categories. */
  custom_categories: string;
  updated_at: string;
}

/** The documents domain's tables by name: its line in `Database` (schema.ts). */
export interface DocumentsSchema {
  patient_documents: PatientDocumentsTable;
  patient_document_settings: PatientDocumentSettingsTable;
}
