import type { ValidationIssue } from "../kernel/domain-error.js";
import { DomainError } from "../kernel/domain-error.js";
import { checkDate } from "../kernel/calendar-date.js";

/** The categories every organisation has (OpenEMR's document tree, flattened to what therapy clinics file). */
export const BUILT_IN_DOCUMENT_CATEGORIES = [
  "referral",
  "consent",
  "insurance_card",
  "imaging",
  "outside_record",
  "visit_summary",
  "other",
] as const;

/**
 * A document's state (document-status-transitions.ts holds the table): an upload waits for its malware scan
 * (pending_scan), then is served (available) or never served again (quarantined); deleted is soft, kept for the
 * organisation's retention period, after which the purge removes the bytes and the row.
 */
export const DOCUMENT_STATUSES = ["pending_scan", "available", "quarantined", "deleted"] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

/**
 * What the scan found: `pending` until the job ran; `clean` or `infected`; `not_configured` when the instance has no
 * scanner (the document is served unscanned); `not_applicable` for what the system rendered itself (visit summaries).
 */
export const SCAN_RESULTS = ["pending", "clean", "infected", "not_configured", "not_applicable"] as const;
export type ScanResult = (typeof SCAN_RESULTS)[number];

/** Where the bytes come from: an upload (sealed in the document store) or a SOAP note's rendered summary. */
export type DocumentSource = "upload" | "soap_summary";

/** The media types accepted by default, as file-type names them (plain text is recognised apart). */
export const DEFAULT_ALLOWED_MEDIA_TYPES = [
  "application/pdf",
  "image/jpeg",
  "image/png",
  "image/heic",
  "image/heif",
  "image/tiff",
  "text/plain",
] as const;

export const DOCUMENT_LIMITS = Object.freeze({
  titleMax: 200,
  descriptionMax: 2000,
  fileNameMax: 255,
  categoryMax: 40,
  /** Custom categories an organisation may add. */
  customCategoriesMax: 50,
  defaultMaxBytes: 25 * 1024 * 1024,
  defaultRetentionDays: 30,
  maxRetentionDays: 3650,
  defaultPageSize: 20,
  maxPageSize: 100,
});

/** A patient document's record (its bytes live in the DocumentStore, sealed, or in the SOAP summary store). */
export interface PatientDocument {
  id: number;
  organisationId: number;
  patientId: number;
  category: string;
  title: string;
  description: string | null;
  /** The date the document is about (a referral's date), YYYY-MM-DD, or null. */
  documentDate: string | null;
  caseId: number | null;
  appointmentId: number | null;
  /** The clinic it belongs to (its appointment's, or its note's), or null for the organisation as a whole. */
  clinicId: number | null;
  source: DocumentSource;
  /** The SOAP note (context id) of a visit summary. */
  soapContextId: string | null;
  fileName: string;
  /** Detected from the content, never the client's claim. */
  mediaType: string;
  sizeBytes: number;
  /** SHA-256 of the plain content, lower-case hex. */
  sha256: string;
  /** The store's key (random, never a name); null for visit summaries. */
  storageKey: string | null;
  /** The document's data key, wrapped by the instance's secret cipher; null for visit summaries. */
  wrappedKey: string | null;
  status: DocumentStatus;
  scanResult: ScanResult;
  /** The signature an infected document matched. */
  scanSignature: string | null;
  scannedAt: Date | null;
  uploadedByUserId: number | null;
  uploadedByClientId: string | null;
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
  /** When the purge may remove a deleted document. */
  purgeAfter: Date | null;
}

/** The fields a client sends with the file (multipart fields) or in an update. */
export interface DocumentMetadataInput {
  category?: string | undefined;
  title?: string | undefined;
  description?: string | null | undefined;
  documentDate?: string | null | undefined;
  caseId?: number | null | undefined;
  appointmentId?: number | null | undefined;
}

/** The list query of one patient's documents. */
export interface DocumentListQuery {
  category?: string | undefined;
  caseId?: number | undefined;
  status?: DocumentStatus | undefined;
  /** document_date (or the upload day when it has none) on or after. */
  from?: string | undefined;
  to?: string | undefined;
  page: number;
  size: number;
}

/** An organisation's document settings: how long deleted documents are kept, and its own categories. */
export interface DocumentSettings {
  retentionDays: number;
  customCategories: string[];
}

export const DEFAULT_DOCUMENT_SETTINGS: DocumentSettings = Object.freeze({
  retentionDays: DOCUMENT_LIMITS.defaultRetentionDays,
  customCategories: [],
}) as DocumentSettings;

const CATEGORY_PATTERN = /^[a-z][a-z0-9_]{0,39}$/;

/** Every problem of a metadata input at once (creating: category and title are required). */
export function documentMetadataIssues(
  input: DocumentMetadataInput,
  creating: boolean,
  categories: readonly string[],
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const text = (field: string, value: unknown, max: number, required: boolean) => {
    if (value === undefined || value === null) {
      if (required) issues.push({ field, reason: "is required" });
      return;
    }
    if (typeof value !== "string") issues.push({ field, reason: "must be a string", value });
    else if (value.trim() === "" && required) issues.push({ field, reason: "must not be empty", value });
    else if (value.length > max) issues.push({ field, reason: `must be at most ${max} characters` });
  };
  if (input.category !== undefined || creating) {
    if (input.category === undefined || input.category === "")
      issues.push({ field: "category", reason: "is required" });
    else if (input.category === "visit_summary")
      issues.push({
        field: "category",
        reason: "visit_summary is kept for the summaries SOAP completion renders",
        value: input.category,
      });
    else if (!categories.includes(input.category))
      issues.push({ field: "category", reason: `must be one of ${categories.join(", ")}`, value: input.category });
  }
  text("title", input.title, DOCUMENT_LIMITS.titleMax, creating || input.title !== undefined);
  text("description", input.description, DOCUMENT_LIMITS.descriptionMax, false);
  checkDate(issues, "document_date", input.documentDate);
  for (const [field, value] of [
    ["case_id", input.caseId],
    ["appointment_id", input.appointmentId],
  ] as const)
    if (value !== undefined && value !== null && !(Number.isSafeInteger(value) && value > 0))
      issues.push({ field, reason: "must be a positive integer", value });
  return issues;
}

export function assertValidDocumentMetadata(
  input: DocumentMetadataInput,
  creating: boolean,
  categories: readonly string[],
): void {
  const issues = documentMetadataIssues(input, creating, categories);
  if (issues.length > 0) throw DomainError.validation(issues);
}

/** The date a list's range filters on: the document's own, else the day it was filed (UTC). */
export const documentListDate = (d: Pick<PatientDocument, "documentDate" | "createdAt">): string =>
  d.documentDate ?? d.createdAt.toISOString().slice(0, 10);

/** The categories an organisation can file under: the built-in ones and its own. */
export const categoriesOf = (settings: DocumentSettings): string[] => [
  ...BUILT_IN_DOCUMENT_CATEGORIES,
  ...settings.customCategories,
];

/** Problems of a settings change (custom categories: lower-case snake_case, not a built-in one, no repeats). */
export function documentSettingsIssues(input: Partial<DocumentSettings>): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (input.retentionDays !== undefined) {
    const days = input.retentionDays;
    if (!Number.isSafeInteger(days) || days < 0 || days > DOCUMENT_LIMITS.maxRetentionDays)
      issues.push({
        field: "retention_days",
        reason: `must be a whole number from 0 to ${DOCUMENT_LIMITS.maxRetentionDays}`,
        value: days,
      });
  }
  if (input.customCategories !== undefined) {
    const seen = new Set<string>();
    if (input.customCategories.length > DOCUMENT_LIMITS.customCategoriesMax)
      issues.push({
        field: "categories",
        reason: `must have at most ${DOCUMENT_LIMITS.customCategoriesMax} entries`,
      });
    input.customCategories.forEach((c, i) => {
      const field = `categories[${i}]`;
      if (typeof c !== "string" || !CATEGORY_PATTERN.test(c))
        issues.push({
          field,
          reason: "must be lower-case letters, digits and _ (at most 40), from a letter",
          value: c,
        });
      else if ((BUILT_IN_DOCUMENT_CATEGORIES as readonly string[]).includes(c))
        issues.push({ field, reason: "is a built-in category", value: c });
      else if (seen.has(c)) issues.push({ field, reason: "is repeated", value: c });
      seen.add(c);
    });
  }
  return issues;
}
