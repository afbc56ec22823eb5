/** The resource types a patient-level export (`Patient/$export`) writes: the patient compartment we hold. */
export const PATIENT_EXPORT_TYPES = [
  "Patient",
  "Coverage",
  "Appointment",
  "Encounter",
  "Condition",
  "DocumentReference",
] as const;

/** The resource types a system-level export (`$export`) writes: the compartment and the directory. */
export const SYSTEM_EXPORT_TYPES = [
  ...PATIENT_EXPORT_TYPES,
  "Organization",
  "Location",
  "Practitioner",
  "PractitionerRole",
] as const;

export type BulkExportType = (typeof SYSTEM_EXPORT_TYPES)[number];

/** `system`: GET /fhir/R4/$export; `patient`: GET /fhir/R4/Patient/$export. */
export type BulkExportKind = "system" | "patient";

export const BULK_EXPORT_STATUSES = ["queued", "running", "completed", "failed", "cancelled"] as const;
export type BulkExportStatus = (typeof BULK_EXPORT_STATUSES)[number];

/** Where the export has got to: the type being written (its index in `types`) and the last id written of it. */
export interface BulkExportCursor {
  typeIndex: number;
  afterId: number;
}

/** One NDJSON file of an export, sealed in the document store like a patient document. */
export interface BulkExportFile {
  /** Its position in the manifest (0, 1, ...): the file's name in the download URL. */
  position: number;
  type: BulkExportType;
  storageKey: string;
  /** The file's data key, wrapped by the instance's secret cipher (document-keys.ts). */
  wrappedKey: string;
  /** Resources (lines) in the file. */
  count: number;
  /** The plain NDJSON's size in bytes. */
  sizeBytes: number;
}

/** A Bulk Data export (FHIR Bulk Data Access 2.0) of one organisation's records, run by the job queue. */
export interface BulkExport {
  /** A random UUID: the status URL names it, so it must not be guessable. */
  id: string;
  organisationId: number;
  kind: BulkExportKind;
  types: BulkExportType[];
  /** `_since`: only resources changed after this instant; null: all. */
  since: Date | null;
  /** The kick-off request's URL (the manifest's `request`). */
  requestUrl: string;
  /** Who asked: only the same user or API client reads the status and downloads the files. */
  requestedByUser: number | null;
  requestedByClient: string | null;
  /** The requester's clinic restriction when it asked (null: every clinic): the export sees what it saw. */
  inClinics: number[] | null;
  status: BulkExportStatus;
  cursor: BulkExportCursor;
  /** Resources written so far. */
  exported: number;
  files: BulkExportFile[];
  /** Why a failed export failed. */
  error: string | null;
  /** The manifest's transactionTime: when the kick-off was accepted (resources changed later may be included). */
  transactionTime: Date;
  updatedAt: Date;
  completedAt: Date | null;
  /** When its files and record are purged: the retention period after completion, at once once cancelled. */
  expiresAt: Date | null;
}

/** What an export may run and hold; createPractice's bulkExport* options. */
export const BULK_EXPORT_LIMITS = Object.freeze({
  /** Exports queued or running at once per organisation (a further kick-off is refused with 429). */
  maxActivePerOrganisation: 3,
  /** Resources per NDJSON file (and per slice of the job): bounds a slice's time and a download's size. */
  defaultResourcesPerFile: 50_000,
  /** How long completed files stay, in hours. */
  defaultRetentionHours: 24,
  /** Rows read per statement. */
  pageSize: 1000,
});
