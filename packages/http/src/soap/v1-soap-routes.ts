import type { Principal } from "@openpractice/core";
import {
  V1_ERROR_SCHEMA,
  V1_PAGINATION_SCHEMA,
  v1EnvelopeSchema,
  v1Pagination,
  v1Success,
} from "../contracts/v1-contract.js";
import { arrayOf, replyObject } from "../openapi/reply-schemas.js";
import { routeGroup, scopePair } from "../define-route.js";
import type { RouteDefinition, RouteDependencies } from "../route.js";
import {
  V1_SOAP_FIELDS,
  v1FormPartialSchema,
  v1FormSchema,
  v1NoteSchema,
  v1FormView,
  v1NoteDraftFromBody,
  v1NoteSearch,
  v1NoteSearchQuerySchema,
  type V1NoteSearchQuery,
  v1NoteView,
  v1SoapCreateSchema,
} from "./v1-soap-contract.js";

export const NOTE_SCOPES = scopePair("notes");
const v1ErrorBody = { $ref: "#/components/schemas/V1Error" };
const one = v1EnvelopeSchema(v1NoteSchema);
const page = v1EnvelopeSchema(replyObject({ notes: arrayOf(v1NoteSchema), pagination: V1_PAGINATION_SCHEMA }));

export function v1SoapRoutes({ practice }: RouteDependencies): RouteDefinition[] {
  const route = routeGroup({
    contract: "v1",
    tags: ["SOAP notes (v1)"],
    auth: true,
    scopes: NOTE_SCOPES,
    fieldNames: V1_SOAP_FIELDS,
  });
  const list = async (ctx: { principal: Principal; query(): V1NoteSearchQuery }) => {
    const found = await practice.soapNotes.search(ctx.principal, v1NoteSearch(ctx.query()));
    return v1Success({ notes: found.notes.map(v1NoteView), pagination: v1Pagination(found) });
  };
  return [
    route({
      method: "POST",
      path: "/apis/hep/v2/soap-context",
      operationId: "v1CreateSoapNote",
      summary:
        "Create a SOAP note (spec 4.1). Errors come with HTTP 200 and a non-2000 code: 4004 appointment not found, 4001 appointment cancelled, and the documented codes (docs/soap-notes.md).",
      access: "write",
      requestBody: v1SoapCreateSchema,
      v1ErrorStatus: 200,
      responses: {
        "200": {
          description:
            "code 2000 with the note, or an error code with data null (every client error but 401 and 429 comes with HTTP 200 here)",
          schema: { anyOf: [one, V1_ERROR_SCHEMA] },
        },
      },
      async handle(ctx) {
        return v1Success(
          v1NoteView(await practice.soapNotes.create(ctx.principal, v1NoteDraftFromBody(await ctx.body()))),
        );
      },
    }),
    route({
      method: "GET",
      path: "/apis/v1/soap-context",
      operationId: "v1ListSoapNotes",
      summary: "A patient's notes (`patient_id`), newest service date first, paged; takes the search filters too.",
      access: "read",
      query: { ...v1NoteSearchQuerySchema, required: ["patient_id"] },
      responses: {
        "200": { description: "A page of notes", schema: page },
        "400": { description: "INVALID_PARAMETER", schema: v1ErrorBody },
      },
      handle: list,
    }),
    route({
      method: "GET",
      path: "/apis/v1/soap-context/search",
      operationId: "v1SearchSoapNotes",
      summary:
        "Search notes by patient, clinic, appointment, case, service date range (Unix seconds), status and completed.",
      access: "read",
      query: v1NoteSearchQuerySchema,
      responses: {
        "200": { description: "A page of notes", schema: page },
        "400": { description: "INVALID_PARAMETER", schema: v1ErrorBody },
      },
      handle: list,
    }),
    route({
      method: "GET",
      path: "/apis/v1/soap-context/:context_id",
      operationId: "v1GetSoapNote",
      summary: "Read a SOAP note.",
      access: "read",
      responses: {
        "200": { description: "The note", schema: one },
        "404": { description: "SOAP_NOTE_NOT_FOUND", schema: v1ErrorBody },
      },
      async handle(ctx) {
        return v1Success(v1NoteView(await practice.soapNotes.get(ctx.principal, ctx.params.context_id ?? "")));
      },
    }),
    route({
      method: "GET",
      path: "/apis/v1/form-data/:submission_id",
      operationId: "v1GetFormData",
      summary: "A section's form submission with its current version.",
      access: "read",
      responses: {
        "200": { description: "The submission", schema: v1EnvelopeSchema(v1FormSchema) },
        "404": { description: "FORM_SUBMISSION_NOT_FOUND", schema: v1ErrorBody },
      },
      async handle(ctx) {
        return v1Success(v1FormView(await practice.soapNotes.form(ctx.principal, ctx.params.submission_id ?? "")));
      },
    }),
    route({
      method: "POST",
      path: "/apis/v1/form-data/partial",
      operationId: "v1WriteFormData",
      summary:
        "Apply partialResponse (dot paths → values) when version is the current version plus 1; any other version is 409 VERSION_CONFLICT and changes nothing.",
      access: "write",
      requestBody: v1FormPartialSchema,
      responses: {
        "200": { description: "The submission at its new version", schema: v1EnvelopeSchema(v1FormSchema) },
        "400": { description: "VALIDATION_FAILED (diagnosis entries of spec 2.2, paths)", schema: v1ErrorBody },
        "409": {
          description: "VERSION_CONFLICT (details.current_version) or INVALID_TRANSITION (the note is COMPLETED)",
          schema: v1ErrorBody,
        },
      },
      async handle(ctx) {
        const b = await ctx.body();
        return v1Success(
          v1FormView(
            await practice.soapNotes.writeForm(ctx.principal, {
              submissionId: b.submissionId,
              contextId: b.soapContextId,
              partialResponse: b.partialResponse,
              version: b.version,
            }),
          ),
        );
      },
    }),
  ];
}
