import type { SoapNote, SummaryVariant } from "@openpractice/core";
import { v1EnvelopeSchema, v1Success } from "../contracts/v1-contract.js";
import { positivePathId } from "../contracts/path-id.js";
import type { RouteContext, RouteDefinition, RouteDependencies } from "../route.js";
import { NOTE_READ_SCOPES, NOTE_WRITE_SCOPES } from "./v1-soap-routes.js";
import { V1_SOAP_FIELDS, v1NoteView } from "./v1-soap-contract.js";
import {
  treatmentsFromBody,
  v1ClaimView,
  v1CompleteNoteSchema,
  v1DocumentationSettingsSchema,
  v1HistoryView,
  v1PlanOfCareView,
  v1ReturnNoteSchema,
  v1SettingsView,
  v1SignatureView,
  v1TreatmentSheetCreateSchema,
  v1TreatmentSheetUpdateSchema,
  v1TreatmentSheetView,
  V1_SUMMARY_FILES,
  V1_TREATMENT_FIELDS,
} from "./v1-soap-workflow-contract.js";

const v1ErrorBody = { $ref: "#/components/schemas/V1Error" };
const noteBody = v1EnvelopeSchema({ type: "object", description: "The SOAP note of spec 2.1" });
const anyBody = v1EnvelopeSchema({ type: "object" });
const errors = (statuses: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(statuses).map(([status, description]) => [status, { description, schema: v1ErrorBody }]),
  );
const contextIdOf = (ctx: RouteContext) => ctx.params.context_id ?? "";

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
  const common = {
    contract: "v1" as const,
    tags: ["SOAP notes (v1)"],
    auth: true,
    fieldNames: { ...V1_SOAP_FIELDS, ...V1_TREATMENT_FIELDS },
  };
  const statusAction = (
    path: string,
    operationId: string,
    summary: string,
    run: (ctx: RouteContext) => Promise<SoapNote>,
    extra: Partial<RouteDefinition> = {},
  ): RouteDefinition => ({
    ...common,
    method: "POST",
    path,
    operationId,
    summary,
    scopes: NOTE_WRITE_SCOPES,
    responses: {
      "200": { description: "The note after the action", schema: noteBody },
      ...errors({
        "400": "VALIDATION_FAILED",
        "403": "SIGNER_NOT_ALLOWED",
        "404": "SOAP_NOTE_NOT_FOUND",
        "409":
          "INVALID_TRANSITION (details.current_status, details.allowed_actions) or NOTE_INCOMPLETE (details name what is missing)",
      }),
    },
    async handle(ctx) {
      return v1Success(v1NoteView(await run(ctx)));
    },
    ...extra,
  });
  const summary = (variant: SummaryVariant): RouteDefinition => ({
    ...common,
    method: "GET",
    path: `/apis/v1/soap-context/:context_id/${V1_SUMMARY_FILES[variant]}`,
    operationId: variant === "full" ? "v1GetSoapSummaryPdf" : "v1GetSoapShortSummaryPdf",
    summary:
      variant === "full"
        ? "The completed note's PDF summary (summary_doc_url), to callers of the same organisation."
        : "The completed note's one-page PDF summary (short_summary_url).",
    scopes: NOTE_READ_SCOPES,
    responses: {
      "200": { description: "The PDF", binaryContentType: "application/pdf" },
      ...errors({
        "404":
          "SOAP_NOTE_NOT_FOUND, or DOCUMENT_NOT_FOUND until the note is completed and rendered (details.summary_status; FAILED with details.summary_failure when it cannot be rendered)",
      }),
    },
    async handle(ctx) {
      const doc = await practice.soapDocuments.document(ctx.principal, contextIdOf(ctx), variant);
      return documentResponse(
        doc,
        `${variant === "full" ? "soap-summary" : "soap-short-summary"}-${doc.contextId}.pdf`,
      );
    },
  });
  return [
    {
      ...common,
      method: "POST",
      path: "/apis/v1/treatment-sheet",
      operationId: "v1CreateTreatmentSheet",
      summary:
        "Create the note's treatment sheet (spec 4.1; when treatment_sheet_id is 0). Each line's billing code must be in the catalog and its modifiers the code's; the reply says per line the units the organisation's billing rule supports.",
      scopes: NOTE_WRITE_SCOPES,
      requestBody: v1TreatmentSheetCreateSchema,
      responses: {
        "200": { description: "The sheet with its id and per-line supported_units", schema: anyBody },
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
    },
    {
      ...common,
      method: "POST",
      path: "/apis/v1/treatment-sheet/:sheet_id",
      operationId: "v1UpdateTreatmentSheet",
      summary: "Replace the sheet's treatments (the body is the treatments array, bare or as `treatments`).",
      scopes: NOTE_WRITE_SCOPES,
      requestBody: v1TreatmentSheetUpdateSchema,
      responses: {
        "200": { description: "The sheet", schema: anyBody },
        ...errors({
          "400": "VALIDATION_FAILED",
          "404": "TREATMENT_SHEET_NOT_FOUND",
          "409": "INVALID_TRANSITION (note awaiting co-signature or COMPLETED)",
        }),
      },
      async handle(ctx) {
        const id = positivePathId(ctx.params.sheet_id) ?? 0;
        const b = await ctx.body();
        return v1Success(
          v1TreatmentSheetView(
            await practice.treatmentSheets.replace(
              ctx.principal,
              id,
              treatmentsFromBody(Array.isArray(b) ? b : b.treatments),
            ),
          ),
        );
      },
    },
    {
      ...common,
      method: "GET",
      path: "/apis/v1/treatment-sheet/:sheet_id",
      operationId: "v1GetTreatmentSheet",
      summary: "Read a treatment sheet with the units its lines support.",
      scopes: NOTE_READ_SCOPES,
      responses: {
        "200": { description: "The sheet", schema: anyBody },
        ...errors({ "404": "TREATMENT_SHEET_NOT_FOUND" }),
      },
      async handle(ctx) {
        return v1Success(
          v1TreatmentSheetView(
            await practice.treatmentSheets.get(ctx.principal, positivePathId(ctx.params.sheet_id) ?? 0),
          ),
        );
      },
    },
    statusAction(
      "/apis/v1/soap-context/:context_id/sign",
      "v1SignSoapNote",
      "The rendering physician signs the note (every section filled, no line over the billing rule): INCOMPLETED or REVISION → COSIGN where co-signature is required, else stays INCOMPLETED, signed. Stores the hash of the signed content.",
      (ctx) => practice.soapWorkflow.sign(ctx.principal, contextIdOf(ctx)),
    ),
    statusAction(
      "/apis/v1/soap-context/:context_id/cosign",
      "v1CosignSoapNote",
      "The supervising physician co-signs: COSIGN → INCOMPLETED, ready to complete.",
      (ctx) => practice.soapWorkflow.cosign(ctx.principal, contextIdOf(ctx)),
    ),
    statusAction(
      "/apis/v1/soap-context/:context_id/return",
      "v1ReturnSoapNote",
      "The supervising physician sends the note back with a reason: COSIGN → REVISION; the signatures are revoked.",
      async (ctx) =>
        practice.soapWorkflow.returnForRevision(ctx.principal, contextIdOf(ctx), (await ctx.body()).reason),
      { requestBody: v1ReturnNoteSchema },
    ),
    statusAction(
      "/apis/v1/soap-context/:context_id",
      "v1CompleteSoapNote",
      "Complete the note (spec 3.1, 4.1): INCOMPLETED → COMPLETED when every section is filled and signed (co-signed where required) and the content is unchanged since. Queues the PDF summaries, submits to billing if the organisation auto-submits, creates or updates the plan of care for INITIAL_SOAP, emits soap_note.completed.",
      async (ctx) => {
        await ctx.body();
        return practice.soapWorkflow.complete(ctx.principal, contextIdOf(ctx));
      },
      { requestBody: v1CompleteNoteSchema },
    ),
    {
      ...common,
      method: "GET",
      path: "/apis/v1/soap-context/:context_id/signatures",
      operationId: "v1GetSoapNoteSignatures",
      summary: "The note's signatures, revoked ones included, with the content hash each covers.",
      scopes: NOTE_READ_SCOPES,
      responses: {
        "200": { description: "The signatures, oldest first", schema: anyBody },
        ...errors({ "404": "SOAP_NOTE_NOT_FOUND" }),
      },
      async handle(ctx) {
        return v1Success({
          signatures: (await practice.soapWorkflow.signatures(ctx.principal, contextIdOf(ctx))).map(v1SignatureView),
        });
      },
    },
    {
      ...common,
      method: "GET",
      path: "/apis/v1/soap-context/:context_id/history",
      operationId: "v1GetSoapNoteHistory",
      summary: "The note's audit trail: treatment-sheet writes and every status action, with who and when.",
      scopes: NOTE_READ_SCOPES,
      responses: {
        "200": { description: "Entries, oldest first", schema: anyBody },
        ...errors({ "404": "SOAP_NOTE_NOT_FOUND" }),
      },
      async handle(ctx) {
        return v1Success({
          history: (await practice.soapWorkflow.history(ctx.principal, contextIdOf(ctx))).map(v1HistoryView),
        });
      },
    },
    summary("full"),
    summary("short"),
    statusAction(
      "/apis/v1/soap-context/:context_id/summary/render",
      "v1RenderSoapSummary",
      "Render a COMPLETED note's PDF summaries again: after a failure (summary_status FAILED, the reason in summary_failure), or to refresh them. The summary becomes PENDING, a render job is queued and the note's history records it; the current PDFs stay served until the new ones replace them.",
      (ctx) => practice.soapDocuments.rerender(ctx.principal, contextIdOf(ctx)),
      {
        responses: {
          "200": { description: "The note, summary_status PENDING", schema: noteBody },
          ...errors({
            "404": "SOAP_NOTE_NOT_FOUND",
            "409":
              "INVALID_TRANSITION: the note is not COMPLETED, or its summary is PENDING already (details.summary_status)",
          }),
        },
      },
    ),
    {
      ...common,
      method: "GET",
      path: "/apis/v1/soap-context/:context_id/claim",
      operationId: "v1GetSoapNoteClaim",
      summary: "The claim the default billing gateway recorded when the note was completed.",
      scopes: NOTE_READ_SCOPES,
      responses: {
        "200": { description: "The claim with its lines", schema: anyBody },
        ...errors({ "404": "SOAP_NOTE_NOT_FOUND or CLAIM_NOT_FOUND" }),
      },
      async handle(ctx) {
        return v1Success(v1ClaimView(await practice.soapWorkflow.claim(ctx.principal, contextIdOf(ctx))));
      },
    },
    {
      ...common,
      method: "GET",
      path: "/apis/v1/plan-of-care/:plan_of_care_id",
      operationId: "v1GetPlanOfCare",
      summary:
        "A plan of care (plan_of_care_id of a completed INITIAL_SOAP note): diagnoses, goals, frequency and duration, 90-day certification period.",
      scopes: NOTE_READ_SCOPES,
      responses: {
        "200": { description: "The plan of care", schema: anyBody },
        ...errors({ "404": "PLAN_OF_CARE_NOT_FOUND" }),
      },
      async handle(ctx) {
        return v1Success(
          v1PlanOfCareView(
            await practice.soapWorkflow.planOfCare(ctx.principal, positivePathId(ctx.params.plan_of_care_id) ?? 0),
          ),
        );
      },
    },
    {
      ...common,
      method: "GET",
      path: "/apis/v1/organisation/settings",
      operationId: "v1GetDocumentationSettings",
      summary:
        "How the organisation documents and bills visits: billing_unit_rule, require_cosign, auto_submit_billing, require_plan_section.",
      scopes: NOTE_READ_SCOPES,
      responses: { "200": { description: "The settings", schema: anyBody } },
      async handle(ctx) {
        return v1Success(v1SettingsView(await practice.documentationSettings.get(ctx.principal)));
      },
    },
    {
      ...common,
      method: "POST",
      path: "/apis/v1/organisation/settings",
      operationId: "v1UpdateDocumentationSettings",
      summary: "Change the documentation settings (admin); omitted ones keep their values.",
      scopes: Object.freeze(["settings:write", "admin"]),
      requestBody: v1DocumentationSettingsSchema,
      responses: {
        "200": { description: "The settings after the change", schema: anyBody },
        ...errors({ "400": "VALIDATION_FAILED", "403": "INSUFFICIENT_PERMISSIONS" }),
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
    },
  ];
}
