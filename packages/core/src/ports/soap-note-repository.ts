import type { FormSubmission, SoapNote, SoapNoteStatus } from "../soap/soap-note.js";

export type SoapNoteRecord = Omit<SoapNote, "id">;

export interface SoapNoteCriteria {
  organisationId: number;
  patientId?: number;
  clinicId?: number;
  appointmentId?: number;
  serviceCaseId?: number;
  /** Inclusive lower and exclusive upper bounds on the service date-time. */
  from?: Date;
  to?: Date;
  statuses?: SoapNoteStatus[];
  completed?: boolean;
  limit: number;
  offset: number;
}

/** SOAP notes and their form submissions, scoped by organisation. */
export interface SoapNoteRepository {
  insert(record: SoapNoteRecord): Promise<SoapNote>;
  findByContextId(organisationId: number, contextId: string): Promise<SoapNote | undefined>;
  /** Newest service date first, then id descending; total counts every match. */
  list(criteria: SoapNoteCriteria): Promise<{ notes: SoapNote[]; total: number }>;

  insertForms(forms: FormSubmission[]): Promise<void>;
  findForm(organisationId: number, id: string): Promise<FormSubmission | undefined>;
  formsOf(organisationId: number, contextId: string): Promise<FormSubmission[]>;
  /**
   * Stores `form` (response, version, updatedAt) if its stored version is still
   * `form.version - 1`: a compare-and-set, so of two writers with the same
   * version exactly one succeeds. false when the version moved (nothing written).
   */
  updateForm(form: FormSubmission): Promise<boolean>;
}
