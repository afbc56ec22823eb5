import type { SoapNoteActionResult, SummaryVariant } from "@openpractice/core";
import { medicareWarningSchema, medicareWarningView } from "../medicare/medicare-views.js";
import type { JsonSchema } from "../validation/json-schema.js";
import { v1EnvelopeSchema, v1Success } from "../contracts/v1-contract.js";
import { pathIdKind } from "../contracts/path-id.js";
import { routeGroup } from "../define-route.js";
import type { RouteDefinition, RouteDependencies } from "../route.js";
import { NOTE_SCOPES } from "./v1-soap-routes.js";
import { V1_SOAP_FIELDS, v1NoteSchema, v1NoteView } from "./v1-soap-contract.js";
import { arrayOf, replyObject } from "../openapi/reply-schemas.js";
import {
  treatmentsFromBody,
  v1ClaimSchema,
  v1ClaimView,
  v1CompleteNoteSchema,
  v1DocumentationSettingsSchema,
  v1HistoryView,
  v1NoteHistorySchema,
  v1PlanOfCareSchema,
  v1PlanOfCareView,
  v1ReturnNoteSchema,
  v1SettingsSchema,
  v1SettingsView,
  v1SignatureSchema,
  v1SignatureView,
  v1TreatmentSheetCreateSchema,
  v1TreatmentSheetSchema,
  v1TreatmentSheetUpdateSchema,
  v1TreatmentSheetView,
  V1_SUMMARY_FILES,
  V1_TREATMENT_FIELDS,
  v1CertificationSchema,
} from "./v1-soap-workflow-contract.js";

const v1ErrorBody = { $ref: "#/components/schemas/V1Error" };
/** A note after a status action, with the warnings the action raised (the Medicare therapy rules'). */
const noteBody = v1EnvelopeSchema(
  replyObject(
    {
      ...(v1NoteSchema.properties as Record<string, JsonSchema>),
      warnings: arrayOf(medicareWarningSchema, "Warnings of the Medicare therapy rules; empty for other visits"),
    },
    { title: "V1SoapNoteAfterAction" },
  ),
);
const actionView = (n: SoapNoteActionResult) => ({ ...v1NoteView(n), warnings: n.warnings.map(medicareWarningView) });
const sheetBody = v1EnvelopeSchema(v1TreatmentSheetSchema);
const errors = (statuses: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(statuses).map(([status, description]) => [status, { description, schema: v1ErrorBody }]),
  );
const SHEET_ID = pathIdKind("TREATMENT_SHEET_NOT_FOUND", "sheet_id");
const PLAN_OF_CARE_ID = pathIdKind("PLAN_OF_CARE_NOT_FOUND", "plan_of_care_id");

/** A stored PDF for the organisation's callers only: private, never cached by shared caches. */
function documentResponse(doc: { content: Uint8Array; contentType: string }, filename: string): Response {
  return new Response(doc.content as Uint8Array<ArrayBuffer>, {
    status: 200,
    headers: {
      "content-type": doc.contentType,
      "content-length": String(doc.content.byteLength),
      "content-disposition": `inline; filename="${filename}"`,
      "cache-control": "private, no-store",
    },
  });
}

/**
 * Treatment sheets, signing, completion and what completion produces (PDF
 * summaries, claim, plan of care), and the organisation's documentation
 * settings. The status table is in core (soap-note-transitions.ts).
 */
export function v1SoapWorkflowRoutes({ practice }: RouteDependencies): RouteDefinition[] {
  const route = routeGroup({
    contract: "v1",
    tags: ["SOAP notes (v1)"],
    auth: true,
    scopes: NOTE_SCOPES,
    fieldNames: { ...V1_SOAP_FIELDS, ...V1_TREATMENT_FIELDS },
  });
  /** The answers of a status action (sign, co-sign, return, complete). */
  const actionResponses = {
    "200": { description: "The note after the action", schema: noteBody },
    ...errors({
      "400": "VALIDATION_FAILED",
      "403": "SIGNER_NOT_ALLOWED",
      "404": "SOAP_NOTE_NOT_FOUND",
      "409":
        "INVALID_TRANSITION (details.current_status, details.allowed_actions) or NOTE_INCOMPLETE (details name what is missing)",
    }),
  };
  const summary = (variant: SummaryVariant) =>
    route({
      method: "GET",
      path: `/apis/v1/soap-context/:context_id/${V1_SUMMARY_FILES[variant]}`,
      operationId: variant === "full" ? "v1GetSoapSummaryPdf" : "v1GetSoapShortSummaryPdf",
      summary:
        variant === "full"
          ? "The completed note's PDF summary (summary_doc_url), to callers of the same organisation."
          : "The completed note's one-page PDF summary (short_summary_url).",
      access: "read",
      responses: {
        "200": { description: "The PDF", binaryContentType: "application/pdf" },
        ...errors({
          "404":
            "SOAP_NOTE_NOT_FOUND, or DOCUMENT_NOT_FOUND until the note is completed and rendered (details.summary_status; FAILED with details.summary_failure when it cannot be rendered)",
        }),
      },
      async handle(ctx) {
        const doc = await practice.soapDocuments.document(ctx.principal, ctx.params.context_id, variant);
        return documentResponse(
          doc,
          `${variant === "full" ? "soap-summary" : "soap-short-summary"}-${doc.contextId}.pdf`,
        );
      },
    });
  return [
    route({
      method: "POST",
      path: "/apis/v1/treatment-sheet",
      operationId: "v1CreateTreatmentSheet",
      summary:
        "Create the note's treatment sheet (spec 4.1; when treatment_sheet_id is 0). Each line's billing code must be in the catalog and its modifiers the code's; the reply says per line the units the organisation's billing rule supports.",
      access: "write",
      requestBody: v1TreatmentSheetCreateSchema,
      responses: {
        "200": { description: "The sheet with its id and per-line supported_units", schema: sheetBody },
        ...errors({
          "400": "VALIDATION_FAILED naming treatments.<i>.<field>",
          "404": "SOAP_NOTE_NOT_FOUND",
          "409":
            "TREATMENT_SHEET_EXISTS (details.treatment_sheet_id) or INVALID_TRANSITION (note awaiting co-signature or COMPLETED)",
        }),
      },
      async handle(ctx) {
        const b = await ctx.body();
        return v1Success(
          v1TreatmentSheetView(
            await practice.treatmentSheets.create(ctx.principal, {
              patientId: Number(b.patient_id),
              contextId: b.soap_context_id,
              treatments: treatmentsFromBody(b.treatments),
            }),
          ),
        );
      },
    }),
    route({
      method: "POST",
      path: "/apis/v1/treatment-sheet/:sheet_id",
      ids: { sheet_id: SHEET_ID },
      operationId: "v1UpdateTreatmentSheet",
      summary: "Replace the sheet's treatments (the body is the treatments array, bare or as `treatments`).",
      access: "write",
      requestBody: v1TreatmentSheetUpdateSchema,
      responses: {
        "200": { description: "The sheet", schema: sheetBody },
        ...errors({
          "400": "VALIDATION_FAILED",
          "404": "TREATMENT_SHEET_NOT_FOUND",
          "409": "INVALID_TRANSITION (note awaiting co-signature or COMPLETED)",
        }),
      },
      async handle(ctx) {
        const b = await ctx.body();
        return v1Success(
          v1TreatmentSheetView(
            await practice.treatmentSheets.replace(
              ctx.principal,
              ctx.ids.sheet_id,
              treatmentsFromBody(Array.isArray(b) ? b : b.treatments),
            ),
          ),
        );
      },
    }),
    route({
      method: "GET",
      path: "/apis/v1/treatment-sheet/:sheet_id",
      ids: { sheet_id: SHEET_ID },
      operationId: "v1GetTreatmentSheet",
      summary: "Read a treatment sheet with the units its lines support.",
      access: "read",
      responses: { "200": { description: "The sheet", schema: sheetBody } },
      async handle(ctx) {
        return v1Success(v1TreatmentSheetView(await practice.treatmentSheets.get(ctx.principal, ctx.ids.sheet_id)));
      },
    }),
    route({
      method: "POST",
      path: "/apis/v1/soap-context/:context_id/sign",
      operationId: "v1SignSoapNote",
      summary:
        "The rendering physician signs the note (every section filled, no line over the billing rule): INCOMPLETED or REVISION → COSIGN where co-signature is required, else stays INCOMPLETED, signed. Stores the hash of the signed content.",
      access: "write",
      responses: actionResponses,
      async handle(ctx) {
        return v1Success(actionView(await practice.soapWorkflow.sign(ctx.principal, ctx.params.context_id)));
      },
    }),
    route({
      method: "POST",
      path: "/apis/v1/soap-context/:context_id/cosign",
      operationId: "v1CosignSoapNote",
      summary: "The supervising physician co-signs: COSIGN → INCOMPLETED, ready to complete.",
      access: "write",
      responses: actionResponses,
      async handle(ctx) {
        return v1Success(actionView(await practice.soapWorkflow.cosign(ctx.principal, ctx.params.context_id)));
      },
    }),
    route({
      method: "POST",
      path: "/apis/v1/soap-context/:context_id/return",
      operationId: "v1ReturnSoapNote",
      summary:
        "The supervising physician sends the note back with a reason: COSIGN → REVISION; the signatures are revoked.",
      access: "write",
      requestBody: v1ReturnNoteSchema,
      responses: actionResponses,
      async handle(ctx) {
        const { reason } = await ctx.body();
        return v1Success(
          actionView(await practice.soapWorkflow.returnForRevision(ctx.principal, ctx.params.context_id, reason)),
        );
      },
    }),
    route({
      method: "POST",
      path: "/apis/v1/soap-context/:context_id",
      operationId: "v1CompleteSoapNote",
      summary:
        "Complete the note (spec 3.1, 4.1): INCOMPLETED → COMPLETED when every section is filled and signed (co-signed where required) and the content is unchanged since. Queues the PDF summaries, submits to billing if the organisation auto-submits, creates or updates the plan of care for INITIAL_SOAP, emits soap_note.completed.",
      access: "write",
      requestBody: v1CompleteNoteSchema,
      responses: actionResponses,
      async handle(ctx) {
        await ctx.body(); // validated: completed true, status COMPLETED
        return v1Success(actionView(await practice.soapWorkflow.complete(ctx.principal, ctx.params.context_id)));
      },
    }),
    route({
      method: "GET",
      path: "/apis/v1/soap-context/:context_id/signatures",
      operationId: "v1GetSoapNoteSignatures",
      summary: "The note's signatures, revoked ones included, with the content hash each covers.",
      access: "read",
      responses: {
        "200": {
          description: "The signatures, oldest first",
          schema: v1EnvelopeSchema(replyObject({ signatures: arrayOf(v1SignatureSchema) })),
        },
        ...errors({ "404": "SOAP_NOTE_NOT_FOUND" }),
      },
      async handle(ctx) {
        return v1Success({
          signatures: (await practice.soapWorkflow.signatures(ctx.principal, ctx.params.context_id)).map(
            v1SignatureView,
          ),
        });
      },
    }),
    route({
      method: "GET",
      path: "/apis/v1/soap-context/:context_id/history",
      operationId: "v1GetSoapNoteHistory",
      summary: "The note's audit trail: treatment-sheet writes and every status action, with who and when.",
      access: "read",
      responses: {
        "200": {
          description: "Entries, oldest first",
          schema: v1EnvelopeSchema(replyObject({ history: arrayOf(v1NoteHistorySchema) })),
        },
        ...errors({ "404": "SOAP_NOTE_NOT_FOUND" }),
      },
      async handle(ctx) {
        return v1Success({
          history: (await practice.soapWorkflow.history(ctx.principal, ctx.params.context_id)).map(v1HistoryView),
        });
      },
    }),
    summary("full"),
    summary("short"),
    route({
      method: "POST",
      path: "/apis/v1/soap-context/:context_id/summary/render",
      operationId: "v1RenderSoapSummary",
      summary:
        "Render a COMPLETED note's PDF summaries again: after a failure (summary_status FAILED, the reason in summary_failure), or to refresh them. The summary becomes PENDING, a render job is queued and the note's history records it; the current PDFs stay served until the new ones replace them.",
      access: "write",
      responses: {
        "200": { description: "The note, summary_status PENDING", schema: v1EnvelopeSchema(v1NoteSchema) },
        ...errors({
          "404": "SOAP_NOTE_NOT_FOUND",
          "409":
            "INVALID_TRANSITION: the note is not COMPLETED, or its summary is PENDING already (details.summary_status)",
        }),
      },
      async handle(ctx) {
        return v1Success(v1NoteView(await practice.soapDocuments.rerender(ctx.principal, ctx.params.context_id)));
      },
    }),
    route({
      method: "GET",
      path: "/apis/v1/soap-context/:context_id/claim",
      operationId: "v1GetSoapNoteClaim",
      summary: "The claim the default billing gateway recorded when the note was completed.",
      access: "read",
      responses: {
        "200": { description: "The claim with its lines", schema: v1EnvelopeSchema(v1ClaimSchema) },
        ...errors({ "404": "SOAP_NOTE_NOT_FOUND or CLAIM_NOT_FOUND" }),
      },
      async handle(ctx) {
        return v1Success(v1ClaimView(await practice.soapWorkflow.claim(ctx.principal, ctx.params.context_id)));
      },
    }),
    route({
      method: "GET",
      path: "/apis/v1/plan-of-care/:plan_of_care_id",
      ids: { plan_of_care_id: PLAN_OF_CARE_ID },
      operationId: "v1GetPlanOfCare",
      summary:
        "A plan of care (plan_of_care_id of a completed INITIAL_SOAP note): diagnoses, goals, frequency and duration, 90-day certification period.",
      access: "read",
      responses: { "200": { description: "The plan of care", schema: v1EnvelopeSchema(v1PlanOfCareSchema) } },
      async handle(ctx) {
        return v1Success(
          v1PlanOfCareView(await practice.soapWorkflow.planOfCare(ctx.principal, ctx.ids.plan_of_care_id)),
        );
      },
    }),
    route({
      method: "POST",
      path: "/apis/v1/plan-of-care/:plan_of_care_id/certification",
      ids: { plan_of_care_id: PLAN_OF_CARE_ID },
      operationId: "v1CertifyPlanOfCare",
      summary:
        "Record the physician's or NPP's certification of the plan's current period: the date they signed it (on or after the evaluation, not ahead) and who. Recording again corrects it.",
      access: "write",
      auditResource: "plan_of_care",
      requestBody: v1CertificationSchema,
      responses: {
        "200": { description: "The plan of care, certified", schema: v1EnvelopeSchema(v1PlanOfCareSchema) },
        ...errors({ "400": "VALIDATION_FAILED naming signed_on or signed_by", "404": "PLAN_OF_CARE_NOT_FOUND" }),
      },
      async handle(ctx) {
        const b = await ctx.body();
        return v1Success(
          v1PlanOfCareView(
            await practice.soapWorkflow.certifyPlanOfCare(ctx.principal, ctx.ids.plan_of_care_id, {
              signedOn: b.signed_on,
              signedBy: b.signed_by,
            }),
          ),
        );
      },
    }),
    route({
      method: "GET",
      path: "/apis/v1/organisation/settings",
      operationId: "v1GetDocumentationSettings",
      summary:
        "How the organisation documents and bills visits: billing_unit_rule, require_cosign, auto_submit_billing, require_plan_section.",
      access: "read",
      responses: { "200": { description: "The settings", schema: v1EnvelopeSchema(v1SettingsSchema) } },
      async handle(ctx) {
        return v1Success(v1SettingsView(await practice.documentationSettings.get(ctx.principal)));
      },
    }),
    route({
      method: "POST",
      path: "/apis/v1/organisation/settings",
      operationId: "v1UpdateDocumentationSettings",
      summary: "Change the documentation settings (admin); omitted ones keep their values.",
      scopes: Object.freeze(["settings:write", "admin"]),
      requestBody: v1DocumentationSettingsSchema,
      responses: {
        "200": { description: "The settings after the change", schema: v1EnvelopeSchema(v1SettingsSchema) },
      },
      async handle(ctx) {
        const b = await ctx.body();
        return v1Success(
          v1SettingsView(
            await practice.documentationSettings.update(ctx.principal, {
              billingUnitRule: b.billing_unit_rule,
              requireCosign: b.require_cosign,
              autoSubmitBilling: b.auto_submit_billing,
              requirePlanSection: b.require_plan_section,
            }),
          ),
        );
      },
    }),
  ];
}
