import {
  CASE_LIMITS,
  type CaseView,
  type CoverageCaseChanges,
  type EligibilityWarning,
  coveragePointer,
  type IcdCode,
  PAYMENT_MODES,
  serviceCaseId,
} from "@openpractice/core";
import type { FieldNames } from "../contracts/field-names.js";
import { V2_ID_INPUT } from "../contracts/v2-contract.js";
import type { Static } from "../define-route.js";
import {
  arrayOf,
  boolean,
  dateOrNull,
  dateTime,
  described,
  idText,
  idTextOrNull,
  integer,
  oneOfStrings,
  orNull,
  plainText,
  replyObject,
  serviceCaseIdText,
  textOrNull,
} from "../openapi/reply-schemas.js";
import { nullable } from "../validation/json-schema.js";
import { eligibilityWarningSchema, eligibilityWarningView } from "../eligibility/eligibility-contract.js";

const date = nullable({ type: "string", format: "date" });
const text = (max: number) => nullable({ type: "string", maxLength: max });
const idOrNullInput = nullable(V2_ID_INPUT);
const icdCodes = {
  type: "array",
  maxItems: CASE_LIMITS.maxIcdCodes,
  uniqueItems: true,
  items: { type: "string", pattern: "^[A-Za-z][0-9][0-9A-Za-z](\\.?[0-9A-Za-z]{1,4})?$" },
  description: "ICD-10-CM codes (M54.50 or M5450) of the loaded code set; descriptions come from it",
} as const;
const visits = { type: "integer", minimum: 0, maximum: CASE_LIMITS.maxVisits } as const;

const editable = {
  case_title: { type: "string", minLength: 1, maxLength: CASE_LIMITS.titleMax },
  specialization: { type: "string", minLength: 1, maxLength: 100, description: "One the organisation enabled" },
  clinic_id: idOrNullInput,
  direct_access: { type: "boolean" },
  primary_referring_physician_id: idOrNullInput,
  secondary_referring_physician_id: idOrNullInput,
  tertiary_referring_physician_id: idOrNullInput,
  icd_codes: icdCodes,
  treating_icd_codes: icdCodes,
  primary_coverage_id: { ...idOrNullInput, description: "One of the patient's coverages; null takes it off" },
  secondary_coverage_id: { ...idOrNullInput, description: "Another of the patient's coverages; null takes it off" },
  treatment_status: { type: "string", enum: ["active", "discharged"] },
  treatment_start_date: date,
  date_of_injury: date,
  date_of_surgery: date,
  payment_mode: nullable({ type: "string", enum: [...PAYMENT_MODES] }),
  frequency_and_duration: text(CASE_LIMITS.textMax),
  visit_track_required: { type: "boolean" },
  case_visit_limit: { ...visits, description: "0: no limit" },
  number_of_past_visits: { ...visits, description: "Visits before this system tracked the case" },
  body_pain_notes: text(CASE_LIMITS.textMax),
  affected_body_parts: {
    type: "array",
    maxItems: CASE_LIMITS.maxBodyParts,
    items: { type: "string", minLength: 1, maxLength: CASE_LIMITS.bodyPartMax },
  },
  therapist_ids: {
    type: "array",
    maxItems: CASE_LIMITS.maxTherapists,
    // User ids come from the identity provider (64-bit), not from our row keys.
    items: { type: ["string", "integer"], pattern: "^[1-9][0-9]{0,14}$", minimum: 1 },
    description: "User ids of the treating therapists",
  },
} as const;

export const v2CaseCreateSchema = {
  $id: "V2CaseCreate",
  type: "object",
  additionalProperties: false,
  required: ["patient_id", "case_title", "specialization"],
  properties: { patient_id: V2_ID_INPUT, ...editable },
} as const;

export const v2CaseUpdateSchema = {
  $id: "V2CaseUpdate",
  type: "object",
  additionalProperties: false,
  minProperties: 1,
  properties: editable,
} as const;

const icdReply = replyObject({ code: plainText, description: textOrNull }, { title: "CaseIcdCode" });

export const v2CaseSchema = replyObject(
  {
    id: described(serviceCaseIdText, "The service case id: also the id in paths (12 is taken too)"),
    patient_id: idText,
    clinic_id: idTextOrNull,
    case_title: plainText,
    specialization: plainText,
    direct_access: boolean,
    primary_referring_physician_id: idTextOrNull,
    secondary_referring_physician_id: idTextOrNull,
    tertiary_referring_physician_id: idTextOrNull,
    icd_codes: arrayOf(icdReply),
    treating_icd_codes: arrayOf(icdReply),
    primary_coverage_id: idTextOrNull,
    secondary_coverage_id: idTextOrNull,
    treatment_status: oneOfStrings(["active", "discharged"]),
    treatment_start_date: dateOrNull,
    date_of_injury: dateOrNull,
    date_of_surgery: dateOrNull,
    payment_mode: orNull(oneOfStrings(PAYMENT_MODES)),
    frequency_and_duration: textOrNull,
    visit_track_required: boolean,
    case_visit_limit: integer,
    number_of_past_visits: integer,
    visits_used: described(integer, "Completed visits, past ones included"),
    visits_booked: described(integer, "Booked and not yet completed"),
    visits_since_progress_report: described(
      integer,
      "Treatment days since the last evaluation or progress report (Medicare asks a report at least every 10, docs/medicare-therapy.md)",
    ),
    auth_required_status: oneOfStrings(["auth_required", "auth_not_required", "auth_expired", "na"]),
    body_pain_notes: textOrNull,
    affected_body_parts: arrayOf(plainText),
    therapist_ids: arrayOf(idText),
    warnings: described(
      arrayOf(eligibilityWarningSchema),
      "From the newest eligibility check of each coverage: prior authorization required, fewer visits remaining than planned, coverage inactive",
    ),
    created_at: dateTime,
    updated_at: dateTime,
  },
  {
    title: "Case",
    examples: [
      {
        id: "SERVICE_CASE_12",
        patient_id: "41",
        clinic_id: "3",
        case_title: "Low back pain",
        specialization: "PT",
        direct_access: false,
        primary_referring_physician_id: "5",
        secondary_referring_physician_id: null,
        tertiary_referring_physician_id: null,
        icd_codes: [{ code: "M54.50", description: "Low back pain, unspecified" }],
        treating_icd_codes: [],
        primary_coverage_id: "21",
        secondary_coverage_id: null,
        treatment_status: "active",
        treatment_start_date: "2027-01-06",
        date_of_injury: null,
        date_of_surgery: null,
        payment_mode: "INSURANCE_PAY",
        frequency_and_duration: "2x/week for 6 weeks",
        visit_track_required: true,
        case_visit_limit: 12,
        number_of_past_visits: 0,
        visits_used: 3,
        visits_booked: 2,
        visits_since_progress_report: 3,
        auth_required_status: "auth_not_required",
        body_pain_notes: null,
        affected_body_parts: ["lumbar spine"],
        therapist_ids: ["2"],
        warnings: [],
        created_at: "2027-01-05T15:00:00.000Z",
        updated_at: "2027-01-05T15:00:00.000Z",
      },
    ],
  },
);

export const V2_CASE_FIELDS: FieldNames = Object.freeze({
  patientId: "patient_id",
  caseTitle: "case_title",
  specialization: "specialization",
  clinicId: "clinic_id",
  directAccess: "direct_access",
  "referrals.primary": "primary_referring_physician_id",
  "referrals.secondary": "secondary_referring_physician_id",
  "referrals.tertiary": "tertiary_referring_physician_id",
  icdCodes: "icd_codes",
  treatingIcdCodes: "treating_icd_codes",
  primaryCoverageId: "primary_coverage_id",
  secondaryCoverageId: "secondary_coverage_id",
  insuranceCards: "primary_coverage_id",
  treatmentStatus: "treatment_status",
  treatmentStartDate: "treatment_start_date",
  dateOfInjury: "date_of_injury",
  dateOfSurgery: "date_of_surgery",
  paymentMode: "payment_mode",
  frequencyAndDuration: "frequency_and_duration",
  visitTrackRequired: "visit_track_required",
  caseVisitLimit: "case_visit_limit",
  numberOfPastVisits: "number_of_past_visits",
  bodyPainNotes: "body_pain_notes",
  affectedBodyParts: "affected_body_parts",
  therapistIds: "therapist_ids",
});

const idOrNullText = (id: number | null) => (id === null ? null : String(id));
const icdView = (c: IcdCode) => ({ code: c.code, description: c.description });

export function v2CaseView(v: CaseView, warnings: readonly EligibilityWarning[]) {
  const c = v.patientCase;
  return {
    id: serviceCaseId(c.id),
    patient_id: String(c.patientId),
    clinic_id: idOrNullText(c.clinicId),
    case_title: c.caseTitle,
    specialization: c.specialization,
    direct_access: c.directAccess,
    primary_referring_physician_id: idOrNullText(c.referrals.primary),
    secondary_referring_physician_id: idOrNullText(c.referrals.secondary),
    tertiary_referring_physician_id: idOrNullText(c.referrals.tertiary),
    icd_codes: c.icdCodes.map(icdView),
    treating_icd_codes: c.treatingIcdCodes.map(icdView),
    primary_coverage_id: idOrNullText(coveragePointer(c.insuranceCards, "PRIMARY")),
    secondary_coverage_id: idOrNullText(coveragePointer(c.insuranceCards, "SECONDARY")),
    treatment_status: c.treatmentStatus.toLowerCase(),
    treatment_start_date: c.treatmentStartDate,
    date_of_injury: c.dateOfInjury,
    date_of_surgery: c.dateOfSurgery,
    payment_mode: c.paymentMode,
    frequency_and_duration: c.frequencyAndDuration,
    visit_track_required: c.visitTrackRequired,
    case_visit_limit: c.caseVisitLimit,
    number_of_past_visits: c.numberOfPastVisits,
    visits_used: v.visits.used,
    visits_booked: v.visits.booked,
    visits_since_progress_report: v.visits.sinceProgressReport,
    auth_required_status: v.authRequiredStatus.toLowerCase(),
    body_pain_notes: c.bodyPainNotes,
    affected_body_parts: c.affectedBodyParts,
    therapist_ids: c.therapistIds.map(String),
    warnings: warnings.map(eligibilityWarningView),
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
  };
}

type Editable = Partial<Static<typeof v2CaseUpdateSchema>>;
const optionalId = (v: string | number | null | undefined) => (v == null ? v : Number(v));

/** The body in domain terms; omitted fields stay undefined (a PATCH keeps them). */
export function caseChangesFromBody(b: Editable): CoverageCaseChanges {
  const referrals = {
    primary: optionalId(b.primary_referring_physician_id),
    secondary: optionalId(b.secondary_referring_physician_id),
    tertiary: optionalId(b.tertiary_referring_physician_id),
  };
  const anyReferral = Object.values(referrals).some((v) => v !== undefined);
  const out: Record<keyof CoverageCaseChanges, unknown> = {
    caseTitle: b.case_title,
    specialization: b.specialization,
    clinicId: optionalId(b.clinic_id),
    directAccess: b.direct_access,
    referrals: anyReferral
      ? Object.fromEntries(Object.entries(referrals).filter(([, v]) => v !== undefined))
      : undefined,
    icdCodes: b.icd_codes,
    treatingIcdCodes: b.treating_icd_codes,
    primaryCoverageId: optionalId(b.primary_coverage_id),
    secondaryCoverageId: optionalId(b.secondary_coverage_id),
    treatmentStatus: b.treatment_status?.toUpperCase(),
    treatmentStartDate: b.treatment_start_date,
    dateOfInjury: b.date_of_injury,
    dateOfSurgery: b.date_of_surgery,
    paymentMode: b.payment_mode,
    frequencyAndDuration: b.frequency_and_duration,
    visitTrackRequired: b.visit_track_required,
    caseVisitLimit: b.case_visit_limit,
    numberOfPastVisits: b.number_of_past_visits,
    bodyPainNotes: b.body_pain_notes,
    affectedBodyParts: b.affected_body_parts,
    therapistIds: b.therapist_ids?.map(Number),
  };
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined)) as CoverageCaseChanges;
}
