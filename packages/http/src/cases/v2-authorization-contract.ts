import { type AuthorizationChanges, type AuthorizationView, serviceCaseId } from "@openpractice/core";
import type { FieldNames } from "../contracts/field-names.js";
import { V1_AUTHORIZATION_FIELDS } from "./v1-authorization-contract.js";
import type { Static } from "../define-route.js";
import {
  arrayOf,
  date,
  dateOrNull,
  dateTime,
  described,
  idText,
  idTextOrNull,
  integer,
  oneOfStrings,
  plainText,
  replyObject,
  serviceCaseIdText,
  textOrNull,
} from "../openapi/reply-schemas.js";
import { nullable } from "../validation/json-schema.js";

const visits = { type: "integer", minimum: 0, maximum: 10_000 } as const;
const optionalDate = nullable({ type: "string", format: "date" });

const editable = {
  reference_number: { type: "string", minLength: 1, maxLength: 100, description: "The payer's authorization number" },
  payer_name: { type: "string", minLength: 1, maxLength: 100, description: "Default: the coverage's payer" },
  plan_start_date: { ...optionalDate, description: "Default: the coverage's" },
  plan_end_date: { ...optionalDate, description: "Default: the coverage's" },
  effective_start_date: { type: "string", format: "date" },
  effective_end_date: { type: "string", format: "date", description: "Inclusive" },
  authorized_visits: { ...visits, minimum: 1 },
  previously_consumed_visits: { ...visits, description: "Visits used before this system tracked it" },
  status: { type: "string", enum: ["active", "inactive"], description: "expired is reported once the window ends" },
  icd_codes: {
    type: "array",
    maxItems: 50,
    uniqueItems: true,
    items: { type: "string", pattern: "^[A-Za-z][0-9][0-9A-Za-z](\\.?[0-9A-Za-z]{1,4})?$" },
    description: "ICD-10-CM codes of the loaded code set",
  },
  cpt_codes: {
    type: "array",
    maxItems: 50,
    items: {
      type: "object",
      additionalProperties: false,
      required: ["code", "authorized_units"],
      properties: {
        code: { type: "string", pattern: "^[A-Za-z0-9]{5}$", description: "CPT or HCPCS" },
        authorized_units: visits,
      },
    },
  },
} as const;

export const v2AuthorizationCreateSchema = {
  $id: "V2AuthorizationCreate",
  type: "object",
  additionalProperties: false,
  required: ["reference_number", "effective_start_date", "effective_end_date", "authorized_visits"],
  properties: editable,
} as const;

export const v2AuthorizationUpdateSchema = {
  $id: "V2AuthorizationUpdate",
  type: "object",
  additionalProperties: false,
  minProperties: 1,
  properties: editable,
} as const;

export const v2AuthorizationSchema = replyObject(
  {
    id: idText,
    service_case_id: serviceCaseIdText,
    patient_id: idText,
    coverage_id: described(idTextOrNull, "null for one written on v1 (a v2 change under a coverage records it)"),
    reference_number: plainText,
    payer: replyObject({ name: plainText, payer_id: textOrNull }, { title: "AuthorizationPayer" }),
    plan_start_date: dateOrNull,
    plan_end_date: dateOrNull,
    effective_start_date: date,
    effective_end_date: date,
    authorized_visits: integer,
    previously_consumed_visits: integer,
    visits_used: described(integer, "Completed in the window, previously consumed ones included"),
    visits_booked: described(integer, "Booked in the window, not yet completed"),
    visits_remaining: described(integer, "Authorized, neither used nor booked (never below 0)"),
    status: oneOfStrings(["active", "inactive", "expired"]),
    icd_codes: arrayOf(replyObject({ code: plainText, description: textOrNull }, { title: "AuthorizationIcdCode" })),
    cpt_codes: arrayOf(replyObject({ code: plainText, authorized_units: integer }, { title: "AuthorizedCptCode" })),
    created_at: dateTime,
    updated_at: dateTime,
  },
  {
    title: "Authorization",
    examples: [
      {
        id: "8",
        service_case_id: "SERVICE_CASE_12",
        patient_id: "41",
        coverage_id: "21",
        reference_number: "AUTH-2027-0042",
        payer: { name: "Aetna", payer_id: "60054" },
        plan_start_date: "2027-01-01",
        plan_end_date: null,
        effective_start_date: "2027-01-06",
        effective_end_date: "2027-03-31",
        authorized_visits: 12,
        previously_consumed_visits: 0,
        visits_used: 3,
        visits_booked: 2,
        visits_remaining: 7,
        status: "active",
        icd_codes: [{ code: "M54.50", description: "Low back pain, unspecified" }],
        cpt_codes: [{ code: "97110", authorized_units: 24 }],
        created_at: "2027-01-05T15:00:00.000Z",
        updated_at: "2027-01-05T15:00:00.000Z",
      },
    ],
  },
);

/** v1's names, but for the CPT list, which v2 calls `cpt_codes` of `{code, authorized_units}`. */
export const V2_AUTHORIZATION_FIELDS: FieldNames = Object.freeze({
  ...V1_AUTHORIZATION_FIELDS,
  coverageId: "coverage_id",
  cptCodeAuthorizationDetails: "cpt_codes",
  cptCode: "code",
});

export function v2AuthorizationView(v: AuthorizationView) {
  const a = v.authorization;
  return {
    id: String(a.id),
    service_case_id: serviceCaseId(a.caseId),
    patient_id: String(a.patientId),
    coverage_id: a.coverageId === null ? null : String(a.coverageId),
    reference_number: a.referenceNumber,
    payer: { name: a.payerName, payer_id: a.payerId },
    plan_start_date: a.planStartDate,
    plan_end_date: a.planEndDate,
    effective_start_date: a.effectiveStartDate,
    effective_end_date: a.effectiveEndDate,
    authorized_visits: a.authorizedVisits,
    previously_consumed_visits: a.previouslyConsumedVisits,
    visits_used: v.currentVisits,
    visits_booked: v.bookedVisits,
    visits_remaining: v.remainingVisits,
    status: v.reportedStatus.toLowerCase(),
    icd_codes: a.icdCodes.map((c) => ({ code: c.code, description: c.description })),
    cpt_codes: a.cptCodeAuthorizationDetails.map((d) => ({ code: d.cptCode, authorized_units: d.authorizedUnits })),
    created_at: a.createdAt.toISOString(),
    updated_at: a.updatedAt.toISOString(),
  };
}

type Editable = Partial<Static<typeof v2AuthorizationUpdateSchema>>;

/** The body in domain terms, ICD codes aside (they are looked up in the code set); omitted fields stay undefined. */
export function authorizationChangesFromBody(b: Editable): Omit<AuthorizationChanges, "icdCodes"> {
  const out: Record<keyof Omit<AuthorizationChanges, "icdCodes">, unknown> = {
    coverageId: undefined,
    referenceNumber: b.reference_number,
    payerName: b.payer_name,
    payerId: undefined,
    planStartDate: b.plan_start_date,
    planEndDate: b.plan_end_date,
    effectiveStartDate: b.effective_start_date,
    effectiveEndDate: b.effective_end_date,
    authorizedVisits: b.authorized_visits,
    previouslyConsumedVisits: b.previously_consumed_visits,
    status: b.status?.toUpperCase(),
    cptCodeAuthorizationDetails: b.cpt_codes?.map((c) => ({ cptCode: c.code, authorizedUnits: c.authorized_units })),
  };
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined)) as Omit<
    AuthorizationChanges,
    "icdCodes"
  >;
}
