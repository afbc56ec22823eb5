import type { DocumentSettings, DocumentStatus, PatientDocument } from "./patient-document.js";

/** A list request as the repository runs it. */
export interface DocumentListFilter {
  category?: string | undefined;
  caseId?: number | undefined;
  /** Undefined: every status but deleted. */
  status?: DocumentStatus | undefined;
  /** On the document's date, or its upload day (UTC) when it has none; inclusive YYYY-MM-DD. */
  from?: string | undefined;
  to?: string | undefined;
  /** A restricted token's clinics: documents of no clinic or of these. Undefined: no restriction. */
  clinicIds?: readonly number[] | undefined;
  limit: number;
  offset: number;
}

/** A visit summary as SOAP completion lists it (the row is made or refreshed when the note's PDF is rendered). */
export type VisitSummaryRecord = Pick<
  PatientDocument,
  | "organisationId"
  | "patientId"
  | "caseId"
  | "appointmentId"
  | "clinicId"
  | "soapContextId"
  | "title"
  | "fileName"
  | "mediaType"
  | "sizeBytes"
  | "sha256"
  | "documentDate"
  | "createdAt"
>;

/** The whole record of a visit summary's row: listed, served, never scanned (the system rendered it). */
export function visitSummaryDocument(record: VisitSummaryRecord): Omit<PatientDocument, "id"> {
  return {
    ...record,
    category: "visit_summary",
    description: null,
    source: "soap_summary",
    storageKey: null,
    wrappedKey: null,
    status: "available",
    scanResult: "not_applicable",
    scanSignature: null,
    scannedAt: null,
    uploadedByUserId: null,
    uploadedByClientId: null,
    updatedAt: record.createdAt,
    deletedAt: null,
    purgeAfter: null,
  };
}

/**
 * Patient documents' records, per organisation (every method but the purge's and the sweep's is scoped by it).
 * The bytes are not here: uploads are in the DocumentStore under storageKey, visit summaries in the SOAP summary
 * store.
 */
export interface PatientDocumentRepository {
  insert(record: Omit<PatientDocument, "id">): Promise<PatientDocument>;
  findById(organisationId: number, id: number): Promise<PatientDocument | undefined>;
  /** Writes the record's mutable fields (metadata, status, scan, deletion) as given. */
  update(record: PatientDocument): Promise<void>;
  /**
   * Writes `record` only if the stored status is still `expectedStatus` (a compare-and-set, so a scan verdict and
   * a deletion racing each other cannot both win); false when it changed, nothing written.
   */
  updateIfStatus(record: PatientDocument, expectedStatus: DocumentStatus): Promise<boolean>;
  /** Newest first (created_at, then id, descending), with the count of all matches. */
  list(
    organisationId: number,
    patientId: number,
    filter: DocumentListFilter,
  ): Promise<{ documents: PatientDocument[]; total: number }>;
  remove(organisationId: number, id: number): Promise<void>;
  /** Deleted documents of any organisation whose purge_after is at or before `now`, oldest first. */
  duePurge(now: Date, limit: number): Promise<PatientDocument[]>;
  /** The keys among `storageKeys` that some row (of any organisation, any status) still names. */
  storageKeysInUse(storageKeys: readonly string[]): Promise<Set<string>>;
  /**
   * Lists a note's rendered summary: inserts its row (status available) or refreshes size, hash and time when the
   * note was rendered again. `created` says which.
   */
  recordVisitSummary(record: VisitSummaryRecord): Promise<{ created: boolean; document: PatientDocument }>;
  settingsOf(organisationId: number): Promise<DocumentSettings | undefined>;
  saveSettings(organisationId: number, settings: DocumentSettings, now: Date): Promise<void>;
}
