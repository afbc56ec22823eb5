import {
  DomainError,
  parseServiceCaseId,
  requireServiceCaseId,
  type DocumentMetadataInput,
  type ValidationIssue,
} from "@openpractice/core";
import { pathIdKind } from "../contracts/path-id.js";
import { V1_PAGINATION_SCHEMA, v1EnvelopeSchema, v1Pagination, v1Success } from "../contracts/v1-contract.js";
import { routeGroup, scopePair } from "../define-route.js";
import { arrayOf, replyObject } from "../openapi/reply-schemas.js";
import { PATIENT_ID } from "../patients/v1-patient-routes.js";
import type { RouteDefinition, RouteDependencies } from "../route.js";
import { contentResponse, etagOf, requestedRange } from "./content-response.js";
import { discardUnreadBody, receiveUpload } from "./multipart-upload.js";
import {
  V1_DOCUMENT_FIELDS,
  v1DocumentChangesFromBody,
  v1DocumentListQuery,
  v1DocumentSchema,
  v1DocumentSettingsSchema,
  v1DocumentSettingsUpdateSchema,
  v1DocumentSettingsView,
  v1DocumentUpdateSchema,
  v1DocumentUploadSchema,
  v1DocumentView,
} from "./v1-document-contract.js";

export const DOCUMENT_SCOPES = scopePair("documents");
const DOCUMENT_ID = pathIdKind("PATIENT_DOCUMENT_NOT_FOUND", "document_id");
const BASE = "/apis/v1/patient/:patient_id/documents";
const v1ErrorBody = { $ref: "#/components/schemas/V1Error" };
const documentBody = v1EnvelopeSchema(v1DocumentSchema);
const error = (description: string) => ({ description, schema: v1ErrorBody });
const UPLOAD_FIELDS = ["category", "title", "description", "document_date", "case_id", "appointment_id"];

/** The form's text fields as the service's metadata; an empty optional field counts as not sent. */
function metadataFromFields(fields: Record<string, string>): DocumentMetadataInput {
  const issues: ValidationIssue[] = Object.keys(fields)
    .filter((name) => !UPLOAD_FIELDS.includes(name))
    .map((name) => ({ field: name, reason: `is not a field of an upload (${UPLOAD_FIELDS.join(", ")}, file)` }));
  if (issues.length > 0) throw DomainError.validation(issues);
  const optional = (name: string) => (fields[name] === undefined || fields[name] === "" ? undefined : fields[name]);
  const caseId = optional("case_id");
  const appointmentId = optional("appointment_id");
  return {
    category: fields.category,
    title: fields.title,
    description: optional("description"),
    documentDate: optional("document_date"),
    caseId: caseId === undefined ? undefined : requireServiceCaseId(caseId, "case_id"),
    appointmentId:
      appointmentId === undefined
        ? undefined
        : /^[1-9][0-9]{0,14}$/.test(appointmentId)
          ? Number(appointmentId)
          : (appointmentId as unknown as number),
  };
}

/** Patient documents on v1 (spec 9.4): upload, list, read, update, delete, download, and the organisation's settings. */
export function v1DocumentRoutes({ practice }: RouteDependencies): RouteDefinition[] {
  const route = routeGroup({
    contract: "v1",
    tags: ["Patient documents (v1)"],
    auth: true,
    scopes: DOCUMENT_SCOPES,
    fieldNames: V1_DOCUMENT_FIELDS,
  });
  const ids = { patient_id: PATIENT_ID, document_id: DOCUMENT_ID };
  const service = practice.patientDocuments;
  return [
    route({
      method: "POST",
      path: BASE,
      ids: { patient_id: PATIENT_ID },
      auditResource: "patient_document",
      auditNamesCreated: true,
      operationId: "v1UploadPatientDocument",
      summary:
        "Upload a document to the patient's chart (multipart/form-data: one file part named file, and the fields). Streamed, checked by its content's type and size, sealed with its own key, then scanned.",
      access: "write",
      requestBody: v1DocumentUploadSchema,
      requestContentType: "multipart/form-data",
      responses: {
        "200": {
          description: "The document (status pending_scan, or available without a scanner)",
          schema: documentBody,
        },
        "400": error(
          "DOCUMENT_UPLOAD_INVALID (no file part, two file parts, an unknown or repeated field, a cut-off body), DOCUMENT_EMPTY, or VALIDATION_FAILED naming the field (an unknown category, a case or appointment of another patient)",
        ),
        "413": error(
          "DOCUMENT_TOO_LARGE: the file passed the size limit (details.limit_bytes); answered at once, the rest neither parsed nor stored",
        ),
        "415": error(
          "DOCUMENT_TYPE_NOT_ALLOWED: the type detected from the content is not accepted or not the one declared (details.detected_type); UNSUPPORTED_MEDIA_TYPE: the body is not multipart/form-data",
        ),
        "503": error("DOCUMENT_STORE_NOT_CONFIGURED: the instance has no document store"),
      },
      async handle(ctx) {
        // An unknown patient or no store is refused before the body is read.
        await service.checkUploadTarget(ctx.principal, ctx.ids.patient_id).catch((error: unknown) => {
          discardUnreadBody(ctx.request);
          throw error;
        });
        const document = await receiveUpload(ctx.request, {
          maxFileBytes: service.maxBytes,
          onFile: (file) =>
            service.upload(ctx.principal, ctx.ids.patient_id, {
              content: file.content,
              fileName: file.fileName,
              declaredType: file.declaredType,
              metadata: async () => metadataFromFields(await file.fields()),
            }),
        });
        return v1Success(v1DocumentView(document));
      },
    }),
    route({
      method: "GET",
      path: BASE,
      ids: { patient_id: PATIENT_ID },
      operationId: "v1ListPatientDocuments",
      summary:
        "The patient's documents, newest first: uploads and visit summaries (category visit_summary), filtered by category, case, date range and status (deleted ones only when asked).",
      access: "read",
      query: v1DocumentListQuery,
      responses: {
        "200": {
          description: "A page of documents",
          schema: v1EnvelopeSchema(
            replyObject({ documents: arrayOf(v1DocumentSchema), pagination: V1_PAGINATION_SCHEMA }),
          ),
        },
      },
      async handle(ctx) {
        const q = ctx.query();
        const caseId = q.case_id === undefined ? undefined : parseServiceCaseId(q.case_id);
        const found = await service.list(ctx.principal, ctx.ids.patient_id, {
          category: q.category,
          caseId,
          status: q.status,
          from: q.from,
          to: q.to,
          page: q.page ?? 1,
          size: q.size ?? 20,
        });
        return v1Success({ documents: found.documents.map(v1DocumentView), pagination: v1Pagination(found) });
      },
    }),
    route({
      method: "GET",
      path: `${BASE}/:document_id`,
      ids,
      operationId: "v1GetPatientDocument",
      summary: "A document's metadata: size, SHA-256, detected media type, uploader, status and scan result.",
      access: "read",
      responses: { "200": { description: "The document", schema: documentBody } },
      async handle(ctx) {
        return v1Success(v1DocumentView(await service.get(ctx.principal, ctx.ids.patient_id, ctx.ids.document_id)));
      },
    }),
    route({
      method: "POST",
      path: `${BASE}/:document_id`,
      ids,
      auditResource: "patient_document",
      operationId: "v1UpdatePatientDocument",
      summary: "Partial update of a document's metadata (null clears an optional field); the content never changes.",
      access: "write",
      requestBody: v1DocumentUpdateSchema,
      responses: { "200": { description: "The document", schema: documentBody } },
      async handle(ctx) {
        const changes = v1DocumentChangesFromBody(await ctx.body());
        return v1Success(
          v1DocumentView(await service.update(ctx.principal, ctx.ids.patient_id, ctx.ids.document_id, changes)),
        );
      },
    }),
    route({
      method: "DELETE",
      path: `${BASE}/:document_id`,
      ids,
      auditResource: "patient_document",
      operationId: "v1DeletePatientDocument",
      summary:
        "Delete a document: it leaves every list and read at once, its content is kept for the organisation's retention period (purge_after), then purged.",
      access: "write",
      responses: {
        "200": { description: "The deleted document", schema: documentBody },
        "400": error("VALIDATION_FAILED: a visit summary stays with its completed note"),
      },
      async handle(ctx) {
        return v1Success(v1DocumentView(await service.delete(ctx.principal, ctx.ids.patient_id, ctx.ids.document_id)));
      },
    }),
    route({
      method: "GET",
      path: `${BASE}/:document_id/content`,
      ids,
      operationId: "v1DownloadPatientDocument",
      summary:
        "Download the content, decrypted as it streams: the detected Content-Type, Content-Disposition attachment, ETag (the SHA-256), Range requests answered 206.",
      access: "read",
      responses: {
        "200": { description: "The content, as the detected media type", binaryContentType: "*/*" },
        "206": { description: "The range asked for (Content-Range)", binaryContentType: "*/*" },
        "304": { description: "If-None-Match names the current ETag" },
        "409": error("DOCUMENT_NOT_READY: the malware scan has not finished (details.status)"),
        "410": error("DOCUMENT_QUARANTINED: the malware scan found something (details.signature); never served"),
        "416": error(
          "DOCUMENT_RANGE_NOT_SATISFIABLE: the range lies outside the content (Content-Range: bytes */size)",
        ),
        "503": error("DOCUMENT_STORE_NOT_CONFIGURED: the instance has no document store"),
      },
      async handle(ctx) {
        const { patient_id: patientId, document_id: documentId } = ctx.ids;
        const { document, read } = await service.content(ctx.principal, patientId, documentId);
        const etag = etagOf(document);
        const ifNoneMatch = ctx.request.headers.get("if-none-match");
        if (ifNoneMatch?.split(",").some((t) => t.trim() === etag || t.trim() === "*"))
          return new Response(null, { status: 304, headers: { etag, "cache-control": "private, no-store" } });
        const range = requestedRange(ctx.request.headers, document.sizeBytes, etag);
        if (range === "unsatisfiable") {
          if (ctx.responseHeaders) ctx.responseHeaders["content-range"] = `bytes */${document.sizeBytes}`;
          throw new DomainError("DOCUMENT_RANGE_NOT_SATISFIABLE", "The range lies outside the document", {
            size_bytes: document.sizeBytes,
          });
        }
        return contentResponse(document, await read(range), range);
      },
    }),
    route({
      method: "GET",
      path: "/apis/v1/document-settings",
      operationId: "v1GetDocumentSettings",
      summary: "The organisation's document settings: retention of deleted documents, and its own categories.",
      access: "read",
      responses: { "200": { description: "The settings", schema: v1EnvelopeSchema(v1DocumentSettingsSchema) } },
      async handle(ctx) {
        return v1Success(v1DocumentSettingsView(await service.settings(ctx.principal)));
      },
    }),
    route({
      method: "POST",
      path: "/apis/v1/document-settings",
      auditResource: "document_settings",
      operationId: "v1UpdateDocumentSettings",
      summary:
        "Change the retention of deleted documents (days, 0 to 3650) or the organisation's own categories (the list given replaces the list). Administrators only.",
      scopes: ["admin"],
      requestBody: v1DocumentSettingsUpdateSchema,
      responses: { "200": { description: "The settings", schema: v1EnvelopeSchema(v1DocumentSettingsSchema) } },
      async handle(ctx) {
        const body = await ctx.body();
        return v1Success(
          v1DocumentSettingsView(
            await service.updateSettings(ctx.principal, {
              ...(body.retention_days === undefined ? {} : { retentionDays: body.retention_days }),
              ...(body.categories === undefined ? {} : { customCategories: body.categories }),
            }),
          ),
        );
      },
    }),
  ];
}
