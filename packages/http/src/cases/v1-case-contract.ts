import {
  INSURANCE_CARD_TYPES,
  PAYMENT_MODES,
  serviceCaseId,
  TREATMENT_STATUSES,
  type CaseChanges,
  type CaseDraft,
  type CaseView,
  type IcdCode,
  type InsuranceCard,
  type ReferringPhysician,
} from "@openpractice/core";
import type { FieldNames } from "../contracts/field-names.js";
import { zonelessUtc } from "../patients/v1-patient-contract.js";
import type { Static } from "../define-route.js";
import {
  arrayOf,
  boolean,
  dateOrNull,
  described,
  id as idReply,
  idOrNull,
  integer,
  oneOfStrings,
  orNull,
  replyObject,
  serviceCaseIdText,
  plainText,
  textOrNull,
  zonelessTime,
} from "../openapi/reply-schemas.js";
import { nullable, type JsonSchema } from "../validation/json-schema.js";

const id = { type: "integer", minimum: 1 } as const;
const date = nullable({ type: "string", format: "date", description: "YYYY-MM-DD" });
const text = (max: number) => nullable({ type: "string", maxLength: max });
/** Spec 2.4 sends some numbers (NPI, phone, fax, zip) as integers; strings are accepted too. */
const digits = (max: number) => nullable({ type: ["string", "integer"], maxLength: max, minimum: 0 });

export const icdCodeSchema = {
  type: "object",
  additionalProperties: false,
  required: ["id", "code", "revision"],
  properties: {
    id: { type: "integer", minimum: 1, description: "non-null, non-zero" },
    code: { type: "string", minLength: 1, maxLength: 10 },
    description: text(500),
    revision: { type: "string", enum: ["ICD10"] },
  },
} as const;

/** A referring physician reference: the id is what counts; the registry supplies the rest. */
const referralSchema = nullable({
  type: "object",
  additionalProperties: false,
  required: ["referring_physician_id"],
  properties: {
    referring_physician_id: {
      type: "integer",
      minimum: 1,
      description: "non-null, non-zero id from the referring physician registry",
    },
    first_name: text(100),
    last_name: text(100),
    npi: digits(10),
    fax_number: digits(30),
    phone_number: digits(30),
    address1: text(200),
    address2: text(200),
    city: text(200),
    state: text(2),
    zip: digits(10),
  },
});

const cardPickSchema = {
  type: "object",
  required: ["insurance_card_id", "insurance_card_type"],
  // Cards are sent back as GET insurance-cards returned them: their other fields are allowed and ignored.
  properties: { insurance_card_id: id, insurance_card_type: { type: "string", enum: [...INSURANCE_CARD_TYPES] } },
} as const;

const caseProperties = {
  case_title: { type: "string", minLength: 1, maxLength: 200 },
  specialization: { type: "string", minLength: 1, maxLength: 30 },
  direct_access: { type: "boolean" },
  referring_physician_details: referralSchema,
  secondary_referring_physician_details: referralSchema,
  tertiary_referring_physician_details: referralSchema,
  icd_codes: { type: "array", maxItems: 50, items: icdCodeSchema },
  treating_icd_codes: { type: "array", maxItems: 50, items: icdCodeSchema },
  number_of_past_visits_for_this_case: { type: "integer", minimum: 0, maximum: 10000 },
  treatment_start_date: date,
  date_of_injury: date,
  date_of_surgery: date,
  insurance_card_list: { type: "array", maxItems: 3, items: cardPickSchema },
  treatment_status: { type: "string", enum: [...TREATMENT_STATUSES] },
  payment_mode: nullable({ type: "string", enum: [...PAYMENT_MODES] }),
  frequency_and_duration: text(4000),
  visit_track_required: { type: "boolean" },
  case_visit_limit: { type: "integer", minimum: 0, maximum: 10000, description: "0 means no limit" },
  body_pain_notes: text(4000),
  affected_body_part_details: { type: "array", maxItems: 30, items: { type: "string", minLength: 1, maxLength: 100 } },
  clinic_id: nullable(id),
  therapist_ids: { type: "array", maxItems: 50, items: id },
} as const;

export const v1CaseCreateSchema = {
  $id: "V1CaseCreate",
  type: "object",
  additionalProperties: false,
  required: ["patient_id", "case_title", "specialization"],
  properties: { patient_id: id, ...caseProperties },
} as const;

export const v1CaseUpdateSchema = {
  $id: "V1CaseUpdate",
  type: "object",
  additionalProperties: false,
  minProperties: 1,
  properties: caseProperties,
} as const;

/** Domain field → v1 wire field; segments map one by one (icdCodes.0.id → icd_codes.0.id). */
export const V1_CASE_FIELDS: FieldNames = Object.freeze({
  patientId: "patient_id",
  caseTitle: "case_title",
  clinicId: "clinic_id",
  directAccess: "direct_access",
  "referrals.primary": "referring_physician_details.referring_physician_id",
  "referrals.secondary": "secondary_referring_physician_details.referring_physician_id",
  "referrals.tertiary": "tertiary_referring_physician_details.referring_physician_id",
  icdCodes: "icd_codes",
  treatingIcdCodes: "treating_icd_codes",
  insuranceCards: "insurance_card_list",
  insuranceCardId: "insurance_card_id",
  insuranceCardType: "insurance_card_type",
  numberOfPastVisits: "number_of_past_visits_for_this_case",
  treatmentStatus: "treatment_status",
  treatmentStartDate: "treatment_start_date",
  dateOfInjury: "date_of_injury",
  dateOfSurgery: "date_of_surgery",
  paymentMode: "payment_mode",
  frequencyAndDuration: "frequency_and_duration",
  visitTrackRequired: "visit_track_required",
  caseVisitLimit: "case_visit_limit",
  bodyPainNotes: "body_pain_notes",
  affectedBodyParts: "affected_body_part_details",
  therapistIds: "therapist_ids",
});

export type V1CaseCreate = Static<typeof v1CaseCreateSchema>;
export type V1CaseUpdate = Static<typeof v1CaseUpdateSchema>;
type V1IcdCode = Static<typeof icdCodeSchema>;
type V1Referral = Static<typeof referralSchema>;

const icdFromWire = (c: V1IcdCode): IcdCode => ({
  id: c.id,
  code: c.code,
  description: c.description ?? null,
  revision: c.revision,
});
const referral = (o: V1Referral | undefined) => (o === undefined ? undefined : (o?.referring_physician_id ?? null));

export function v1CaseChangesFromBody(b: V1CaseUpdate): CaseChanges {
  const referrals = {
    primary: referral(b.referring_physician_details),
    secondary: referral(b.secondary_referring_physician_details),
    tertiary: referral(b.tertiary_referring_physician_details),
  };
  const defined = Object.fromEntries(Object.entries(referrals).filter(([, v]) => v !== undefined));
  return {
    caseTitle: b.case_title,
    specialization: b.specialization,
    clinicId: b.clinic_id,
    directAccess: b.direct_access,
    referrals: Object.keys(defined).length ? defined : undefined,
    icdCodes: b.icd_codes?.map(icdFromWire),
    treatingIcdCodes: b.treating_icd_codes?.map(icdFromWire),
    insuranceCards: b.insurance_card_list?.map((c) => ({
      insuranceCardId: c.insurance_card_id,
      insuranceCardType: c.insurance_card_type,
    })),
    numberOfPastVisits: b.number_of_past_visits_for_this_case,
    treatmentStatus: b.treatment_status,
    treatmentStartDate: b.treatment_start_date,
    dateOfInjury: b.date_of_injury,
    dateOfSurgery: b.date_of_surgery,
    paymentMode: b.payment_mode,
    frequencyAndDuration: b.frequency_and_duration,
    visitTrackRequired: b.visit_track_required,
    caseVisitLimit: b.case_visit_limit,
    bodyPainNotes: b.body_pain_notes,
    affectedBodyParts: b.affected_body_part_details,
    therapistIds: b.therapist_ids,
  };
}

export const v1CaseDraftFromBody = (b: V1CaseCreate): CaseDraft =>
  ({ ...v1CaseChangesFromBody(b), patientId: b.patient_id }) as CaseDraft;

const icdView = (c: IcdCode) => ({ id: c.id, code: c.code, description: c.description, revision: c.revision });

/** Spec 2.4's resolved referring physician: NPI as a string, from the registry. */
export function v1ReferralView(p: ReferringPhysician | null) {
  if (!p) return null;
  return {
    ref_physician_id: p.id,
    first_name: p.firstName,
    last_name: p.lastName,
    npi: p.npi,
    fax_number: p.faxNumber,
    phone_number: p.phoneNumber,
    address1: p.address1,
    address2: p.address2,
    city: p.city,
    state: p.state,
    zip: p.zip,
  };
}

export function v1CaseView(v: CaseView) {
  const c = v.patientCase;
  return {
    id: String(c.id),
    service_case_id: serviceCaseId(c.id),
    case_title: c.caseTitle,
    patient_id: c.patientId,
    specialization: c.specialization,
    affected_body_part_details: c.affectedBodyParts,
    patient_case_identifier: { patient_id: c.patientId, case_title: c.caseTitle, treatment_status: c.treatmentStatus },
    referring_physician_details: v1ReferralView(v.physicians.primary),
    secondary_referring_physician_details: v1ReferralView(v.physicians.secondary),
    tertiary_referring_physician_details: v1ReferralView(v.physicians.tertiary),
    icd_codes: c.icdCodes.map(icdView),
    treating_icd_codes: c.treatingIcdCodes.map(icdView),
    insurance_card_list: c.insuranceCards.map((card) => ({
      ...v1InsuranceCardView(card),
      insurance_card_type: card.insuranceCardType,
    })),
    number_of_past_visits_for_this_case: c.numberOfPastVisits,
    treatment_status: c.treatmentStatus,
    treatment_start_date: c.treatmentStartDate,
    date_of_injury: c.dateOfInjury,
    date_of_surgery: c.dateOfSurgery,
    direct_access: c.directAccess,
    authorization_required: c.visitTrackRequired,
    auth_required_status: v.authRequiredStatus,
    payment_mode: c.paymentMode,
    frequency_and_duration: c.frequencyAndDuration,
    visit_track_required: c.visitTrackRequired,
    case_visit_limit: c.caseVisitLimit,
    visits_used: v.visits.used,
    visits_booked: v.visits.booked,
    visits_since_progress_report: v.visits.sinceProgressReport,
    body_pain_notes: c.bodyPainNotes,
    organisation_id: c.organisationId,
    clinic_id: c.clinicId,
    therapist_ids: c.therapistIds,
    created_date: c.createdAt.toISOString().slice(0, 10),
    updated_date: c.updatedAt.toISOString().slice(0, 10),
    created_at: zonelessUtc(c.createdAt),
    updated_at: zonelessUtc(c.updatedAt),
  };
}

export function v1InsuranceCardView(
  card: Pick<InsuranceCard, "id" | "payer" | "insuranceNumber" | "planStartDate" | "planEndDate">,
) {
  return {
    insurance_card_id: card.id,
    insurance_payer: { payer_reg_id: card.payer.payerRegId, name: card.payer.name, payer_id: card.payer.payerId },
    insurance_number: card.insuranceNumber,
    plan_start_date: card.planStartDate,
    plan_end_date: card.planEndDate,
  };
}

export const v1InsuranceCardCreateSchema = {
  $id: "V1InsuranceCardCreate",
  type: "object",
  additionalProperties: false,
  required: ["insurance_payer", "insurance_number"],
  properties: {
    insurance_payer: {
      type: "object",
      additionalProperties: false,
      required: ["name"],
      properties: {
        payer_reg_id: nullable(id),
        name: { type: "string", minLength: 1, maxLength: 200 },
        payer_id: text(50),
      },
    },
    insurance_number: { type: "string", minLength: 1, maxLength: 50 },
    plan_start_date: date,
    plan_end_date: date,
  },
} as const;

export const V1_CARD_FIELDS: FieldNames = Object.freeze({
  payer: "insurance_payer",
  insuranceNumber: "insurance_number",
  planStartDate: "plan_start_date",
  planEndDate: "plan_end_date",
});

/** An ICD-10 code on a case or an authorization, as sent. */
export const v1IcdCodeReplySchema: JsonSchema = replyObject(
  { id: idReply, code: plainText, description: textOrNull, revision: oneOfStrings(["ICD10"]) },
  { title: "V1IcdCode" },
);

/** A referring physician as a case names it (v1ReferralView): resolved from the registry. */
const V1_CASE_PHYSICIAN_SCHEMA = replyObject(
  {
    ref_physician_id: idReply,
    first_name: plainText,
    last_name: plainText,
    npi: textOrNull,
    fax_number: textOrNull,
    phone_number: textOrNull,
    address1: textOrNull,
    address2: textOrNull,
    city: textOrNull,
    state: textOrNull,
    zip: textOrNull,
  },
  { title: "V1CaseReferringPhysician" },
);

const V1_INSURANCE_CARD_PROPERTIES = {
  insurance_card_id: idReply,
  insurance_payer: replyObject(
    {
      payer_reg_id: described(idOrNull, "The payer registry's id (GET /v2/payers), when known"),
      name: plainText,
      payer_id: described(textOrNull, "The clearinghouse payer id"),
    },
    { title: "V1InsurancePayer" },
  ),
  insurance_number: plainText,
  plan_start_date: dateOrNull,
  plan_end_date: dateOrNull,
} as const;

/** A patient's insurance card (v1InsuranceCardView). */
export const v1InsuranceCardSchema: JsonSchema = replyObject(V1_INSURANCE_CARD_PROPERTIES, {
  title: "V1InsuranceCard",
});

/** A case as v1 shows it (v1CaseView, spec 2.4). Its `id` is a string, as the spec sends it. */
export const v1CaseSchema: JsonSchema = replyObject(
  {
    id: described({ type: "string", pattern: "^[1-9][0-9]*$" }, "The case id, as a string (spec 2.4)"),
    service_case_id: described(serviceCaseIdText, "SERVICE_CASE_<id>: what appointments and notes name"),
    case_title: plainText,
    patient_id: idReply,
    specialization: plainText,
    affected_body_part_details: arrayOf(plainText),
    patient_case_identifier: replyObject({
      patient_id: idReply,
      case_title: plainText,
      treatment_status: oneOfStrings(TREATMENT_STATUSES),
    }),
    referring_physician_details: orNull(V1_CASE_PHYSICIAN_SCHEMA),
    secondary_referring_physician_details: orNull(V1_CASE_PHYSICIAN_SCHEMA),
    tertiary_referring_physician_details: orNull(V1_CASE_PHYSICIAN_SCHEMA),
    icd_codes: arrayOf(v1IcdCodeReplySchema),
    treating_icd_codes: arrayOf(v1IcdCodeReplySchema),
    insurance_card_list: arrayOf(
      replyObject(
        { ...V1_INSURANCE_CARD_PROPERTIES, insurance_card_type: oneOfStrings(INSURANCE_CARD_TYPES) },
        { title: "V1CaseInsuranceCard" },
      ),
    ),
    number_of_past_visits_for_this_case: integer,
    treatment_status: oneOfStrings(TREATMENT_STATUSES),
    treatment_start_date: dateOrNull,
    date_of_injury: dateOrNull,
    date_of_surgery: dateOrNull,
    direct_access: boolean,
    authorization_required: described(boolean, "The same as visit_track_required"),
    auth_required_status: oneOfStrings(["AUTH_REQUIRED", "AUTH_NOT_REQUIRED", "AUTH_EXPIRED", "NA"]),
    payment_mode: orNull(oneOfStrings(PAYMENT_MODES)),
    frequency_and_duration: textOrNull,
    visit_track_required: boolean,
    case_visit_limit: described(integer, "0 means no limit"),
    visits_used: integer,
    visits_booked: integer,
    visits_since_progress_report: described(
      integer,
      "Treatment days since the last evaluation or progress report (Medicare asks a report at least every 10, docs/medicare-therapy.md)",
    ),
    body_pain_notes: textOrNull,
    organisation_id: idReply,
    clinic_id: idOrNull,
    therapist_ids: arrayOf(idReply),
    created_date: { type: "string", format: "date" },
    updated_date: { type: "string", format: "date" },
    created_at: zonelessTime,
    updated_at: zonelessTime,
  },
  {
    title: "V1Case",
    examples: [
      {
        id: "77",
        service_case_id: "SERVICE_CASE_77",
        case_title: "Left knee post ACL reconstruction",
        patient_id: 1042,
        specialization: "PT",
        affected_body_part_details: ["left knee"],
        patient_case_identifier: {
          patient_id: 1042,
          case_title: "Left knee post ACL reconstruction",
          treatment_status: "ACTIVE",
        },
        referring_physician_details: {
          ref_physician_id: 12,
          first_name: "Alan",
          last_name: "Chen",
          npi: "1245319599",
          fax_number: "3125550177",
          phone_number: "3125550176",
          address1: "251 E Huron St",
          address2: null,
          city: "Chicago",
          state: "IL",
          zip: "60611",
        },
        secondary_referring_physician_details: null,
        tertiary_referring_physician_details: null,
        icd_codes: [
          {
            id: 52231,
            code: "S83.512D",
            description: "Sprain of anterior cruciate ligament of left knee, subsequent encounter",
            revision: "ICD10",
          },
        ],
        treating_icd_codes: [],
        insurance_card_list: [
          {
            insurance_card_id: 301,
            insurance_payer: { payer_reg_id: 18, name: "Blue Cross Blue Shield of Illinois", payer_id: "00621" },
            insurance_number: "XOF123456789",
            plan_start_date: "2025-01-01",
            plan_end_date: "2025-12-31",
            insurance_card_type: "PRIMARY",
          },
        ],
        number_of_past_visits_for_this_case: 0,
        treatment_status: "ACTIVE",
        treatment_start_date: "2025-03-15",
        date_of_injury: "2025-01-04",
        date_of_surgery: "2025-02-10",
        direct_access: false,
        authorization_required: true,
        auth_required_status: "AUTH_REQUIRED",
        payment_mode: "INSURANCE_PAY",
        frequency_and_duration: "2x/week for 6 weeks",
        visit_track_required: true,
        case_visit_limit: 12,
        visits_used: 0,
        visits_booked: 1,
        visits_since_progress_report: 0,
        body_pain_notes: null,
        organisation_id: 1,
        clinic_id: 3,
        therapist_ids: [9001],
        created_date: "2025-03-14",
        updated_date: "2025-03-14",
        created_at: "2025-03-14T15:20:03",
        updated_at: "2025-03-14T15:20:03",
      },
    ],
  },
);
