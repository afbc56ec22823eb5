import {
  SOAP_SECTIONS,
  SUMMARY_STATUSES,
  isNoteEditable,
  requireServiceCaseId,
  serviceCaseId,
  SOAP_NOTE_STATUSES,
  SOAP_NOTE_TYPES,
  summaryStatusOf,
  type FormSubmission,
  type NoteSearch,
  type SoapNote,
  type SoapNoteDraft,
} from "@openpractice/core";
import { caseIdBodySchema, caseIdQuerySchema } from "../contracts/case-id.js";
import type { FieldNames } from "../contracts/field-names.js";
import { zonelessUtc } from "../patients/v1-patient-contract.js";
import type { Static } from "../define-route.js";
import {
  anyObject,
  boolean,
  described,
  id,
  idOrNull,
  integer,
  oneOfStrings,
  orNull,
  replyObject,
  serviceCaseIdOrNull,
  plainText,
  textOrNull,
  zonelessTime,
  zonelessTimeOrNull,
} from "../openapi/reply-schemas.js";
import { nullable, type JsonSchema } from "../validation/json-schema.js";

const fromSession = { not: {}, description: "it comes from the authenticated session (spec 4.1 rule 2)" } as const;
const contextRef = nullable({ type: "string", minLength: 1, maxLength: 40 });

export const v1SoapCreateSchema = {
  $id: "V1SoapNoteCreate",
  type: "object",
  additionalProperties: false,
  required: ["patient_id", "type"],
  properties: {
    patient_id: { type: "integer", minimum: 1 },
    type: { type: "string", enum: [...SOAP_NOTE_TYPES] },
    appointment_id: nullable({
      type: "integer",
      minimum: 0,
      description: "Omit or 0 for an appointment-free note (with soap_without_appointment true)",
    }),
    category: nullable({ type: "string", maxLength: 30 }),
    service_case_id: nullable(caseIdBodySchema),
    attributes: nullable({
      type: "object",
      additionalProperties: false,
      properties: { subType: nullable({ type: "string", maxLength: 40 }) },
    }),
    parent: contextRef,
    soap_without_appointment: { type: "boolean" },
    data_carry_forward_from: contextRef,
    clinic_id: fromSession,
    organisation_id: fromSession,
  },
} as const;

export const v1FormPartialSchema = {
  $id: "V1FormDataPartial",
  type: "object",
  additionalProperties: false,
  required: ["submissionId", "soapContextId", "partialResponse", "version"],
  properties: {
    submissionId: { type: "string", minLength: 1, maxLength: 44 },
    soapContextId: { type: "string", minLength: 1, maxLength: 40 },
    partialResponse: {
      type: "object",
      minProperties: 1,
      maxProperties: 100,
      description: "dot-notation path → value, paths starting with response.",
    },
    version: { type: "integer", minimum: 1, description: "the current version plus 1" },
  },
} as const;

export const V1_SOAP_FIELDS: FieldNames = Object.freeze({
  patientId: "patient_id",
  appointmentId: "appointment_id",
  serviceCaseId: "service_case_id",
  soapWithoutAppointment: "soap_without_appointment",
  dataCarryForwardFrom: "data_carry_forward_from",
  "attributes.subType": "attributes.subType",
});

export type V1SoapCreate = Static<typeof v1SoapCreateSchema>;
export type V1FormPartial = Static<typeof v1FormPartialSchema>;
export type V1NoteSearchQuery = Static<typeof v1NoteSearchQuerySchema>;

export function v1NoteDraftFromBody(b: V1SoapCreate): SoapNoteDraft {
  return {
    patientId: b.patient_id,
    type: b.type,
    appointmentId: b.appointment_id || null,
    category: b.category ?? null,
    serviceCaseId: b.service_case_id == null ? null : requireServiceCaseId(b.service_case_id, "serviceCaseId"),
    attributes: b.attributes ?? null,
    parent: b.parent ?? null,
    soapWithoutAppointment: b.soap_without_appointment ?? false,
    dataCarryForwardFrom: b.data_carry_forward_from ?? null,
  };
}

const zoneless = (d: Date | null) => (d ? zonelessUtc(d) : null);

/** Spec 2.1, dates zoneless ISO 8601 (UTC). */
export function v1NoteView(n: SoapNote) {
  return {
    context_id: n.contextId,
    patient_id: n.patientId,
    organisation_id: n.organisationId,
    clinic_id: n.clinicId,
    service_case_id: serviceCaseId(n.serviceCaseId),
    case_title: n.caseTitle,
    appointment_id: n.appointmentId,
    type: n.type,
    category: n.category,
    service_date_time: zonelessUtc(n.serviceDateTime),
    entry_date_time: zonelessUtc(n.entryDateTime),
    status: n.status,
    completed: n.completed,
    completed_at: zoneless(n.completedAt),
    rendering_physician: n.renderingPhysician,
    supervising_physician: n.supervisingPhysician,
    subjective_submission_id: n.submissionIds.Subjective,
    objective_submission_id: n.submissionIds.Objective,
    assessment_submission_id: n.submissionIds.Assessment,
    plan_submission_id: n.submissionIds.Plan,
    treatment_sheet_id: n.treatmentSheetId,
    plan_of_care_id: n.planOfCareId,
    submit_for_billing: n.submitForBilling,
    summary_doc_url: n.summaryDocUrl,
    short_summary_url: n.shortSummaryUrl,
    summary_status: summaryStatusOf(n),
    summary_failure: n.summaryFailure ?? null,
    is_soap_note_editable: isNoteEditable(n.status),
    billing_status: n.billingStatus,
    soap_without_appointment: n.soapWithoutAppointment,
    parent: n.parent,
    data_carry_forward_from: n.dataCarryForwardFrom,
    created_at: zonelessUtc(n.createdAt),
    updated_at: zonelessUtc(n.updatedAt),
  };
}

export const v1FormView = (f: FormSubmission) => ({
  submission_id: f.id,
  soap_context_id: f.contextId,
  section: f.section,
  version: f.version,
  response: f.response,
  updated_at: zonelessUtc(f.updatedAt),
});

const unix = { type: "integer", minimum: 0, maximum: 32503680000 } as const;
export const v1NoteSearchQuerySchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    patient_id: { type: "integer", minimum: 1 },
    clinic_id: { type: "integer", minimum: 1 },
    appointment_id: { type: "integer", minimum: 1 },
    service_case_id: caseIdQuerySchema,
    from: { ...unix, description: "service date-time at or after, Unix seconds" },
    to: { ...unix, description: "service date-time before, Unix seconds" },
    status: { type: "string", maxLength: 100, description: `comma-separated: ${SOAP_NOTE_STATUSES.join(", ")}` },
    completed: { type: "boolean" },
    page: { type: "integer", minimum: 1, default: 1 },
    size: { type: "integer", minimum: 1, maximum: 100, default: 20 },
  },
} as const;

export function v1NoteSearch(q: V1NoteSearchQuery): NoteSearch {
  return {
    patientId: q.patient_id,
    clinicId: q.clinic_id,
    appointmentId: q.appointment_id,
    serviceCaseId:
      q.service_case_id === undefined ? undefined : requireServiceCaseId(q.service_case_id, "service_case_id"),
    from: q.from === undefined ? undefined : new Date(q.from * 1000),
    to: q.to === undefined ? undefined : new Date(q.to * 1000),
    statuses: typeof q.status === "string" && q.status !== "" ? q.status.split(",") : undefined,
    completed: q.completed,
    page: q.page,
    size: q.size,
  };
}

/** A SOAP note as v1 shows it (v1NoteView, spec 2.1). */
export const v1NoteSchema: JsonSchema = replyObject(
  {
    context_id: described(plainText, "The note's public id, used in every later call"),
    patient_id: id,
    organisation_id: id,
    clinic_id: id,
    service_case_id: serviceCaseIdOrNull,
    case_title: textOrNull,
    appointment_id: idOrNull,
    type: oneOfStrings(SOAP_NOTE_TYPES),
    category: textOrNull,
    service_date_time: zonelessTime,
    entry_date_time: zonelessTime,
    status: oneOfStrings(SOAP_NOTE_STATUSES),
    completed: boolean,
    completed_at: zonelessTimeOrNull,
    rendering_physician: described(id, "The rendering physician's user id"),
    supervising_physician: described(idOrNull, "The supervising physician's user id"),
    subjective_submission_id: plainText,
    objective_submission_id: plainText,
    assessment_submission_id: plainText,
    plan_submission_id: plainText,
    treatment_sheet_id: described(integer, "0 until the note has a treatment sheet"),
    plan_of_care_id: idOrNull,
    submit_for_billing: boolean,
    summary_doc_url: described(textOrNull, "The PDF summary, once the completed note is rendered"),
    short_summary_url: described(textOrNull, "The one-page PDF summary, once rendered"),
    summary_status: described(orNull(oneOfStrings(SUMMARY_STATUSES)), "null until the note is completed"),
    summary_failure: described(textOrNull, "Why the summary is FAILED; null otherwise"),
    is_soap_note_editable: boolean,
    billing_status: described(textOrNull, "null until completion; then SUBMITTED or NOT_SUBMITTED (or the gateway's)"),
    soap_without_appointment: boolean,
    parent: textOrNull,
    data_carry_forward_from: textOrNull,
    created_at: zonelessTime,
    updated_at: zonelessTime,
  },
  { title: "V1SoapNote" },
);

/** A section's form submission (v1FormView). */
export const v1FormSchema: JsonSchema = replyObject(
  {
    submission_id: plainText,
    soap_context_id: plainText,
    section: oneOfStrings(SOAP_SECTIONS),
    version: integer,
    response: described(anyObject, "The section's answers"),
    updated_at: zonelessTime,
  },
  { title: "V1FormSubmission" },
);
