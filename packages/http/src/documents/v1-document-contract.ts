import {
  BUILT_IN_DOCUMENT_CATEGORIES,
  DOCUMENT_LIMITS,
  DOCUMENT_STATUSES,
  requireServiceCaseId,
  SCAN_RESULTS,
  serviceCaseId,
  type DocumentMetadataInput,
  type DocumentSettings,
  type PatientDocument,
} from "@openpractice/core";
import { caseIdBodySchema, caseIdQuerySchema } from "../contracts/case-id.js";
import type { FieldNames } from "../contracts/field-names.js";
import { zonelessUtc } from "../patients/v1-patient-contract.js";
import {
  arrayOf,
  described,
  id,
  idOrNull,
  integer,
  oneOfStrings,
  plainText,
  replyObject,
  serviceCaseIdOrNull,
  textOrNull,
  dateOrNull,
  zonelessTime,
  zonelessTimeOrNull,
} from "../openapi/reply-schemas.js";

/** Domain field → wire field, for validation errors. */
export const V1_DOCUMENT_FIELDS: FieldNames = {
  documentDate: "document_date",
  caseId: "case_id",
  appointmentId: "appointment_id",
  retentionDays: "retention_days",
  customCategories: "categories",
};

/** A document as v1 shows it: metadata, never the data key or the store's key. */
export const v1DocumentSchema = replyObject(
  {
    id,
    patient_id: id,
    category: plainText,
    title: plainText,
    description: textOrNull,
    document_date: dateOrNull,
    service_case_id: serviceCaseIdOrNull,
    appointment_id: idOrNull,
    clinic_id: described(
      idOrNull,
      "The clinic it belongs to (its appointment's or its note's); null: the organisation",
    ),
    source: oneOfStrings(["upload", "soap_summary"]),
    soap_context_id: textOrNull,
    file_name: plainText,
    media_type: described(plainText, "Detected from the content (never the client's claim)"),
    size_bytes: integer,
    sha256: described(plainText, "SHA-256 of the content, lower-case hex; the download's ETag"),
    status: oneOfStrings(DOCUMENT_STATUSES),
    scan: replyObject({
      result: oneOfStrings(SCAN_RESULTS),
      signature: textOrNull,
      scanned_at: zonelessTimeOrNull,
    }),
    uploaded_by: replyObject({ user_id: idOrNull, client_id: textOrNull }),
    created_at: zonelessTime,
    updated_at: zonelessTime,
    deleted_at: zonelessTimeOrNull,
    purge_after: zonelessTimeOrNull,
  },
  {
    title: "V1PatientDocument",
    examples: [
      {
        id: 41,
        patient_id: 7,
        category: "referral",
        title: "Referral from Dr. Okafor",
        description: null,
        document_date: "2026-11-02",
        service_case_id: "SERVICE_CASE_12",
        appointment_id: null,
        clinic_id: null,
        source: "upload",
        soap_context_id: null,
        file_name: "referral.pdf",
        media_type: "application/pdf",
        size_bytes: 48213,
        sha256: "3a7bd3e2360a3d29eea436fcfb7e44c735d117c42d1c1835420b6b9942dd4f1b",
        status: "available",
        scan: { result: "clean", signature: null, scanned_at: "2026-11-20T09:30:02" },
        uploaded_by: { user_id: 101, client_id: null },
        created_at: "2026-11-20T09:30:01",
        updated_at: "2026-11-20T09:30:02",
        deleted_at: null,
        purge_after: null,
      },
    ],
  },
);

export function v1DocumentView(d: PatientDocument) {
  return {
    id: d.id,
    patient_id: d.patientId,
    category: d.category,
    title: d.title,
    description: d.description,
    document_date: d.documentDate,
    service_case_id: serviceCaseId(d.caseId),
    appointment_id: d.appointmentId,
    clinic_id: d.clinicId,
    source: d.source,
    soap_context_id: d.soapContextId,
    file_name: d.fileName,
    media_type: d.mediaType,
    size_bytes: d.sizeBytes,
    sha256: d.sha256,
    status: d.status,
    scan: {
      result: d.scanResult,
      signature: d.scanSignature,
      scanned_at: d.scannedAt ? zonelessUtc(d.scannedAt) : null,
    },
    uploaded_by: { user_id: d.uploadedByUserId, client_id: d.uploadedByClientId },
    created_at: zonelessUtc(d.createdAt),
    updated_at: zonelessUtc(d.updatedAt),
    deleted_at: d.deletedAt ? zonelessUtc(d.deletedAt) : null,
    purge_after: d.purgeAfter ? zonelessUtc(d.purgeAfter) : null,
  };
}

const caseIdOrNull = { ...caseIdBodySchema, type: ["integer", "string", "null"] } as const;
const metadataProperties = {
  category: {
    type: "string",
    maxLength: DOCUMENT_LIMITS.categoryMax,
    description: `${BUILT_IN_DOCUMENT_CATEGORIES.filter((c) => c !== "visit_summary").join(", ")}, or one of the organisation's own (document settings); visit_summary is the system's`,
  },
  title: { type: "string", minLength: 1, maxLength: DOCUMENT_LIMITS.titleMax },
  description: { type: ["string", "null"], maxLength: DOCUMENT_LIMITS.descriptionMax },
  document_date: { type: ["string", "null"], format: "date", description: "The date the document is about" },
  case_id: { ...caseIdOrNull, description: "A case of this patient: 12 or SERVICE_CASE_12" },
  appointment_id: { type: ["integer", "null"], minimum: 1, description: "An appointment of this patient" },
} as const;

/** The multipart form of an upload, as the OpenAPI document shows it (busboy reads it; the service checks it). */
export const v1DocumentUploadSchema = {
  type: "object",
  required: ["file", "category", "title"],
  additionalProperties: false,
  properties: {
    file: {
      type: "string",
      format: "binary",
      description: "The document: one file part; its type is detected from its content",
    },
    ...metadataProperties,
  },
} as const;

/** POST …/documents/{document_id}: a partial update of the metadata (null clears an optional field). */
export const v1DocumentUpdateSchema = {
  type: "object",
  additionalProperties: false,
  minProperties: 1,
  properties: metadataProperties,
} as const;

type UpdateBody = {
  category?: string;
  title?: string;
  description?: string | null;
  document_date?: string | null;
  case_id?: number | string | null;
  appointment_id?: number | null;
};

export function v1DocumentChangesFromBody(body: UpdateBody): DocumentMetadataInput {
  const caseId =
    body.case_id === undefined || body.case_id === null ? body.case_id : requireServiceCaseId(body.case_id, "case_id");
  return {
    category: body.category,
    title: body.title,
    description: body.description,
    documentDate: body.document_date,
    caseId,
    appointmentId: body.appointment_id,
  };
}

export const v1DocumentListQuery = {
  type: "object",
  additionalProperties: false,
  properties: {
    category: { type: "string", maxLength: DOCUMENT_LIMITS.categoryMax },
    case_id: caseIdQuerySchema,
    status: { type: "string", enum: [...DOCUMENT_STATUSES], description: "Default: every status but deleted" },
    from: { type: "string", format: "date", description: "document_date (else the upload day) on or after" },
    to: { type: "string", format: "date", description: "document_date (else the upload day) on or before" },
    page: { type: "integer", minimum: 1, default: 1 },
    size: {
      type: "integer",
      minimum: 1,
      maximum: DOCUMENT_LIMITS.maxPageSize,
      default: DOCUMENT_LIMITS.defaultPageSize,
    },
  },
} as const;

export const v1DocumentSettingsSchema = replyObject(
  {
    retention_days: described(integer, "How long a deleted document is kept before the purge removes it"),
    categories: arrayOf(plainText, "The organisation's own categories, besides the built-in ones"),
    built_in_categories: arrayOf(plainText),
  },
  { title: "V1DocumentSettings" },
);

export const v1DocumentSettingsView = (s: DocumentSettings) => ({
  retention_days: s.retentionDays,
  categories: s.customCategories,
  built_in_categories: [...BUILT_IN_DOCUMENT_CATEGORIES],
});

export const v1DocumentSettingsUpdateSchema = {
  type: "object",
  additionalProperties: false,
  minProperties: 1,
  properties: {
    retention_days: { type: "integer", minimum: 0, maximum: DOCUMENT_LIMITS.maxRetentionDays },
    categories: {
      type: "array",
      maxItems: DOCUMENT_LIMITS.customCategoriesMax,
      items: { type: "string", maxLength: DOCUMENT_LIMITS.categoryMax },
    },
  },
} as const;
