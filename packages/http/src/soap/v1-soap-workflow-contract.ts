import {
  BILLING_UNIT_RULES,
  RETURN_REASON_MAX_LENGTH,
  serviceCaseId,
  THERAPY_DISCIPLINES,
  TREATMENT_LIMITS,
  type AssessedTreatmentSheet,
  type Claim,
  type DocumentationSettings,
  type PlanOfCareView,
  type SoapNoteHistoryEntry,
  type SoapSignature,
  type TreatmentLineInput,
} from "@openpractice/core";
import type { FieldNames } from "../contracts/field-names.js";
import { v1ModifierSchema, v1ModifierView } from "../billing/v1-billing-routes.js";
import { zonelessUtc } from "../patients/v1-patient-contract.js";
import { medicareSheetSchema, medicareSheetView } from "../medicare/medicare-views.js";
import type { Static } from "../define-route.js";
import {
  anyObject,
  arrayOf,
  boolean,
  date,
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

const modifierSchema = {
  type: "object",
  additionalProperties: false,
  required: ["cpt_modifier_id"],
  properties: {
    cpt_modifier_id: { type: "integer", minimum: 1 },
    cpt_modifier_code: nullable({
      type: "string",
      maxLength: 2,
      description: "checked against the catalog's modifier when sent",
    }),
    class_name: nullable({ type: "string", maxLength: 100, description: "ignored: the catalog's value is stored" }),
    description: nullable({ type: "string", maxLength: 300, description: "ignored: the catalog's value is stored" }),
    filter: nullable({ type: "boolean", description: "ignored: the catalog's value is stored" }),
  },
} as const;

const treatmentsSchema = {
  type: "array",
  maxItems: TREATMENT_LIMITS.maxLines,
  description: "Spec 2.3 treatment objects",
  items: {
    type: "object",
    additionalProperties: false,
    required: ["treatment_class_id", "duration", "units"],
    properties: {
      treatment_class_id: {
        type: "integer",
        minimum: 1,
        description: "id of a billing code of the organisation's catalog (GET /apis/v1/treatment-catalog/latest)",
      },
      duration: { type: "integer", minimum: 0, maximum: TREATMENT_LIMITS.maxMinutes, description: "minutes" },
      units: { type: "integer", minimum: 0, maximum: TREATMENT_LIMITS.maxUnits },
      modifiers: { type: "array", maxItems: 4, items: modifierSchema },
      provided_by: {
        type: ["array", "null"],
        maxItems: TREATMENT_LIMITS.maxProviders,
        description:
          "Who furnished the minutes when others than the rendering provider did (a therapy assistant, say): the rest are the rendering provider's. Decides CQ/CO for Medicare (docs/medicare-therapy.md)",
        items: {
          type: "object",
          additionalProperties: false,
          required: ["user_id", "minutes"],
          properties: {
            user_id: { type: "integer", minimum: 1, description: "a provider's user id" },
            minutes: { type: "integer", minimum: 0, maximum: TREATMENT_LIMITS.maxMinutes },
          },
        },
      },
    },
  },
} as const;

const patientIdString = {
  type: ["string", "integer"],
  pattern: "^[1-9][0-9]{0,14}$",
  minimum: 1,
  description: "the patient's id, sent as a string (spec 4.1)",
} as const;

export const v1TreatmentSheetCreateSchema = {
  $id: "V1TreatmentSheetCreate",
  type: "object",
  additionalProperties: false,
  required: ["patient_id", "soap_context_id", "treatments"],
  properties: {
    patient_id: patientIdString,
    soap_context_id: { type: "string", minLength: 1, maxLength: 40 },
    treatments: treatmentsSchema,
  },
} as const;

/** The update takes the same treatments array: as the body itself, or as `treatments` of the create body. */
export const v1TreatmentSheetUpdateSchema = {
  $id: "V1TreatmentSheetUpdate",
  anyOf: [
    treatmentsSchema,
    {
      type: "object",
      additionalProperties: false,
      required: ["treatments"],
      properties: {
        treatments: treatmentsSchema,
        patient_id: patientIdString,
        soap_context_id: { type: "string", minLength: 1, maxLength: 40 },
      },
    },
  ],
} as const;

export const v1CompleteNoteSchema = {
  $id: "V1CompleteSoapNote",
  type: "object",
  additionalProperties: false,
  required: ["completed", "status"],
  properties: {
    completed: { const: true, description: "must be true" },
    status: { const: "COMPLETED", description: "must be COMPLETED" },
    completed_at: { type: "null", description: "null: the server sets the completion time" },
  },
} as const;

export const v1ReturnNoteSchema = {
  $id: "V1ReturnSoapNote",
  type: "object",
  additionalProperties: false,
  required: ["reason"],
  properties: {
    reason: {
      type: "string",
      minLength: 1,
      maxLength: RETURN_REASON_MAX_LENGTH,
      description: "what the author should revise",
    },
  },
} as const;

export const v1DocumentationSettingsSchema = {
  $id: "V1DocumentationSettings",
  type: "object",
  additionalProperties: false,
  minProperties: 1,
  properties: {
    billing_unit_rule: { type: "string", enum: [...BILLING_UNIT_RULES] },
    require_cosign: { type: "boolean" },
    auto_submit_billing: { type: "boolean" },
    require_plan_section: {
      type: "boolean",
      description: "a note needs its Plan section filled to be signed (default false)",
    },
  },
} as const;

export const V1_TREATMENT_FIELDS: FieldNames = Object.freeze({
  patientId: "patient_id",
  treatmentClassId: "treatment_class_id",
  cptModifierId: "cpt_modifier_id",
  cptModifierCode: "cpt_modifier_code",
  providedBy: "provided_by",
  userId: "user_id",
  signedOn: "signed_on",
  signedBy: "signed_by",
  billingUnitRule: "billing_unit_rule",
  requireCosign: "require_cosign",
  autoSubmitBilling: "auto_submit_billing",
  requirePlanSection: "require_plan_section",
});

export type V1Treatments = Static<typeof treatmentsSchema>;
export type V1TreatmentSheetCreate = Static<typeof v1TreatmentSheetCreateSchema>;
export type V1TreatmentSheetUpdate = Static<typeof v1TreatmentSheetUpdateSchema>;
export type V1DocumentationSettings = Static<typeof v1DocumentationSettingsSchema>;

/** Wire treatments (spec 2.3) as domain lines. */
export function treatmentsFromBody(items: V1Treatments): TreatmentLineInput[] {
  // class_name, description and filter are the catalog's: sent ones are ignored.
  return items.map((t) => ({
    treatmentClassId: t.treatment_class_id,
    duration: t.duration,
    units: t.units,
    modifiers: (t.modifiers ?? []).map((m) => ({
      cptModifierId: m.cpt_modifier_id,
      cptModifierCode: m.cpt_modifier_code ?? undefined,
    })),
    providedBy: (t.provided_by ?? []).map((p) => ({ userId: p.user_id, minutes: p.minutes })),
  }));
}

export function v1TreatmentSheetView({ sheet, assessment, medicare }: AssessedTreatmentSheet) {
  return {
    id: sheet.id,
    soap_context_id: sheet.contextId,
    patient_id: String(sheet.patientId),
    billing_rule: assessment.rule,
    total_timed_minutes: assessment.totalTimedMinutes,
    total_units: assessment.totalUnits,
    total_supported_units: assessment.totalSupportedUnits,
    over_billed: assessment.overBilled,
    treatments: assessment.lines.map((l) => ({
      treatment_class_id: l.treatmentClassId,
      code: l.code,
      description: l.description,
      timed: l.timed,
      duration: l.duration,
      units: l.units,
      supported_units: l.supportedUnits,
      over_billed: l.overBilled,
      modifiers: l.modifiers.map(v1ModifierView),
      provided_by: (l.providedBy ?? []).map((p) => ({ user_id: p.userId, minutes: p.minutes })),
    })),
    medicare: medicareSheetView(medicare),
    created_at: zonelessUtc(sheet.createdAt),
    updated_at: zonelessUtc(sheet.updatedAt),
  };
}

export const v1SignatureView = (s: SoapSignature) => ({
  role: s.role,
  user_id: s.userId,
  content_hash: s.contentHash,
  signed_at: zonelessUtc(s.signedAt),
  revoked_at: s.revokedAt ? zonelessUtc(s.revokedAt) : null,
  revoked_reason: s.revokedReason,
});

export const v1HistoryView = (e: SoapNoteHistoryEntry) => ({
  action: e.action,
  from_status: e.fromStatus,
  to_status: e.toStatus,
  actor_user_id: e.actorUserId,
  at: zonelessUtc(e.at),
  details: e.details,
});

/** POST …/plan-of-care/{id}/certification. */
export const v1CertificationSchema = {
  $id: "V1PlanOfCareCertification",
  type: "object",
  additionalProperties: false,
  required: ["signed_on", "signed_by"],
  properties: {
    signed_on: { type: "string", description: "The date the physician or NPP signed the certification, YYYY-MM-DD" },
    signed_by: { type: "string", maxLength: 200, description: "Who signed it: name, credentials, NPI" },
  },
} as const;

export const v1PlanOfCareView = (p: PlanOfCareView) => ({
  plan_of_care_id: p.id,
  patient_id: p.patientId,
  service_case_id: serviceCaseId(p.serviceCaseId),
  source_context_id: p.sourceContextId,
  diagnoses: p.diagnoses.map((d) => ({ code: d.code, description: d.description, is_primary: d.isPrimary })),
  goals: p.goals,
  medical_necessity: p.medicalNecessity,
  discipline: p.discipline,
  frequency_and_duration: p.frequencyAndDuration,
  certification_start_date: p.certificationStart,
  certification_end_date: p.certificationEnd,
  certification: {
    status: p.certification.status,
    due_date: p.certification.dueDate,
    certified_on: p.certifiedOn,
    certified_by: p.certifiedBy,
  },
  version: p.version,
  created_at: zonelessUtc(p.createdAt),
  updated_at: zonelessUtc(p.updatedAt),
});

export const v1ClaimView = (c: Claim) => ({
  claim_id: c.id,
  reference: c.reference,
  status: c.status,
  soap_context_id: c.contextId,
  patient_id: c.patientId,
  service_case_id: serviceCaseId(c.serviceCaseId),
  service_date: c.serviceDate,
  rendering_physician: c.renderingPhysician,
  diagnosis_codes: c.diagnosisCodes,
  lines: c.lines.map((l) => ({
    code: l.code,
    modifiers: l.modifiers,
    units: l.units,
    minutes: l.minutes,
    payment_percent: l.paymentPercent ?? 100,
  })),
  created_at: zonelessUtc(c.createdAt),
});

/** The file each summary is served as under /apis/v1/soap-context/{context_id}/ (core stores the links: soapSummaryPath). */
export { SOAP_SUMMARY_FILES as V1_SUMMARY_FILES, soapSummaryPath as v1SummaryPath } from "@openpractice/core";

export const v1SettingsView = (s: DocumentationSettings) => ({
  billing_unit_rule: s.billingUnitRule,
  require_cosign: s.requireCosign,
  auto_submit_billing: s.autoSubmitBilling,
  require_plan_section: s.requirePlanSection,
});

/** A treatment sheet with what the catalog and the billing rule say of each line (v1TreatmentSheetView). */
export const v1TreatmentSheetSchema: JsonSchema = replyObject(
  {
    id,
    soap_context_id: plainText,
    patient_id: described({ type: "string", pattern: "^[1-9][0-9]*$" }, "The patient's id as a string (spec 4.1)"),
    billing_rule: oneOfStrings(BILLING_UNIT_RULES),
    total_timed_minutes: integer,
    total_units: integer,
    total_supported_units: integer,
    over_billed: described(boolean, "Some line bills more units than the rule supports: completion is refused"),
    treatments: arrayOf(
      replyObject(
        {
          treatment_class_id: id,
          code: plainText,
          description: plainText,
          timed: boolean,
          duration: described(integer, "minutes"),
          units: integer,
          supported_units: described(integer, "The units the organisation's billing rule supports for this line"),
          over_billed: boolean,
          modifiers: arrayOf(v1ModifierSchema),
          provided_by: arrayOf(
            replyObject({ user_id: id, minutes: integer }),
            "Minutes furnished by other providers than the rendering one",
          ),
        },
        { title: "V1TreatmentLine" },
      ),
    ),
    medicare: medicareSheetSchema,
    created_at: zonelessTime,
    updated_at: zonelessTime,
  },
  { title: "V1TreatmentSheet" },
);

/** A signature of a note (v1SignatureView). */
export const v1SignatureSchema: JsonSchema = replyObject(
  {
    role: oneOfStrings(["AUTHOR", "COSIGNER"]),
    user_id: id,
    content_hash: described(plainText, "sha256:<hex> of the note's content at signing"),
    signed_at: zonelessTime,
    revoked_at: zonelessTimeOrNull,
    revoked_reason: textOrNull,
  },
  { title: "V1SoapSignature" },
);

/** An entry of a note's history (v1HistoryView). */
export const v1NoteHistorySchema: JsonSchema = replyObject(
  {
    action: plainText,
    from_status: textOrNull,
    to_status: plainText,
    actor_user_id: idOrNull,
    at: zonelessTime,
    details: anyObject,
  },
  { title: "V1SoapNoteHistoryEntry" },
);

/** A plan of care (v1PlanOfCareView). */
export const v1PlanOfCareSchema: JsonSchema = replyObject(
  {
    plan_of_care_id: id,
    patient_id: id,
    service_case_id: serviceCaseIdOrNull,
    source_context_id: described(plainText, "The INITIAL_SOAP note that last set the plan"),
    diagnoses: arrayOf(
      replyObject({ code: plainText, description: plainText, is_primary: { type: ["boolean", "null"] } }),
    ),
    goals: arrayOf(plainText),
    medical_necessity: described(
      textOrNull,
      "Why therapy is medically necessary: the text under medical_necessity in the evaluation's Plan form",
    ),
    discipline: described(
      orNull(oneOfStrings(THERAPY_DISCIPLINES)),
      "PT, OT or SLP: the Plan form's discipline, else the evaluating provider's credentials",
    ),
    frequency_and_duration: textOrNull,
    certification_start_date: date,
    certification_end_date: date,
    certification: replyObject(
      {
        status: described(
          oneOfStrings(["PENDING", "DUE_SOON", "CERTIFIED", "RECERT_DUE", "LAPSED"]),
          "Where the physician's or NPP's certification stands today (docs/medicare-therapy.md)",
        ),
        due_date: described(
          date,
          "Certification due (the evaluation + 30 days), or when certified the period's last day",
        ),
        certified_on: described(orNull(date), "The date they signed"),
        certified_by: textOrNull,
      },
      { title: "V1PlanOfCareCertificationState" },
    ),
    version: integer,
    created_at: zonelessTime,
    updated_at: zonelessTime,
  },
  { title: "V1PlanOfCare" },
);

/** The claim the default billing gateway recorded (v1ClaimView). */
export const v1ClaimSchema: JsonSchema = replyObject(
  {
    claim_id: id,
    reference: plainText,
    status: plainText,
    soap_context_id: plainText,
    patient_id: id,
    service_case_id: serviceCaseIdOrNull,
    service_date: date,
    rendering_physician: id,
    diagnosis_codes: arrayOf(plainText, "ICD-10 codes of the Assessment, primary first"),
    lines: arrayOf(
      replyObject(
        {
          code: plainText,
          modifiers: arrayOf(plainText),
          units: integer,
          minutes: integer,
          payment_percent: described(integer, "85 for a line with CQ or CO (a therapy assistant's service), else 100"),
        },
        { title: "V1ClaimLine" },
      ),
    ),
    created_at: zonelessTime,
  },
  { title: "V1Claim" },
);

/** The organisation's documentation settings (v1SettingsView). */
export const v1SettingsSchema: JsonSchema = replyObject(
  {
    billing_unit_rule: oneOfStrings(BILLING_UNIT_RULES),
    require_cosign: boolean,
    auto_submit_billing: boolean,
    require_plan_section: boolean,
  },
  { title: "V1DocumentationSettings" },
);
