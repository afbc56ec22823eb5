import type { FormSubmission, SoapNote, SoapNoteStatus } from "./soap-note.js";
import type { SignatureRole, SoapNoteHistoryEntry, SoapSignature } from "./soap-signature.js";

export type SoapNoteRecord = Omit<SoapNote, "id">;

export interface SoapNoteCriteria {
  organisationId: number;
  patientId?: number | undefined;
  clinicId?: number | undefined;
  /** Only records at one of these clinics (a clinic restriction, auth/clinic-access.ts); never empty; undefined: any. */
  inClinics?: readonly number[] | undefined;
  appointmentId?: number | undefined;
  serviceCaseId?: number | undefined;
  /** Inclusive lower and exclusive upper bounds on the service date-time. */
  from?: Date | undefined;
  to?: Date | undefined;
  statuses?: SoapNoteStatus[] | undefined;
  completed?: boolean | undefined;
  limit: number;
  offset: number;
}

/** A COMPLETED note as a medical record reads it: who, when, where, and the Assessment form's answers ({} when none). */
export interface CompletedNoteDigest {
  contextId: string;
  patientId: number;
  clinicId: number;
  serviceDateTime: Date;
  renderingPhysician: number;
  assessment: Record<string, unknown>;
}

/** SOAP notes and their form submissions, scoped by organisation. */
export interface SoapNoteRepository extends SoapNoteWorkflowRepository {
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
  /**
   * The COMPLETED notes of each of `patientIds` (the organisation's only), at most
   * `perPatient` each: newest service date first, then id descending, grouped by
   * patient in that order. One round trip for a page of patients.
   */
  completedNotesOf(
    organisationId: number,
    patientIds: readonly number[],
    perPatient: number,
    /** Only notes at one of these clinics (a clinic restriction); never empty; undefined: any. */
    inClinics?: readonly number[],
  ): Promise<CompletedNoteDigest[]>;
}

/** Fields of a note that change after creation. */
export type SoapNoteChanges = Partial<
  Pick<
    SoapNote,
    | "status"
    | "completed"
    | "completedAt"
    | "treatmentSheetId"
    | "planOfCareId"
    | "submitForBilling"
    | "billingStatus"
    | "summaryDocUrl"
    | "shortSummaryUrl"
    | "summaryStatus"
    | "summaryFailure"
  >
> & { updatedAt: Date };

/** Status actions, signatures and the audit trail of notes. */
export interface SoapNoteWorkflowRepository {
  /**
   * The note, locked until the transaction ends (a row write lock; SQLite: the
   * database write lock), so status actions on one note run one at a time.
   */
  lockNote(organisationId: number, contextId: string): Promise<SoapNote | undefined>;
  updateNote(organisationId: number, contextId: string, changes: SoapNoteChanges): Promise<void>;
  addSignature(signature: Omit<SoapSignature, "id" | "revokedAt" | "revokedReason">): Promise<SoapSignature>;
  /** Signatures of the note in signing order; revoked ones only when asked. */
  signaturesOf(
    organisationId: number,
    contextId: string,
    options?: { includeRevoked?: boolean },
  ): Promise<SoapSignature[]>;
  /** Revokes the note's unrevoked signatures of the given roles; returns how many. */
  revokeSignatures(
    organisationId: number,
    contextId: string,
    roles: SignatureRole[],
    at: Date,
    reason: string,
  ): Promise<number>;
  appendHistory(entry: SoapNoteHistoryEntry): Promise<void>;
  /** Oldest first. */
  historyOf(organisationId: number, contextId: string): Promise<SoapNoteHistoryEntry[]>;
}
