import {
  ELIGIBILITY_CHECK_STATUSES,
  ELIGIBILITY_SERVICE_TYPES,
  type EligibilityCheck,
  type EligibilityResult,
  type EligibilityWarning,
  type ManualEligibility,
  rejectionDetails,
  type ServiceBenefits,
} from "@openpractice/core";
import type { FieldNames } from "../contracts/field-names.js";
import type { Static } from "../define-route.js";
import {
  arrayOf,
  boolean,
  date,
  dateOrNull,
  described,
  numberOrNull,
  integerOrNull,
  oneOfStrings,
  orNull,
  plainText,
  replyObject,
  textOrNull,
} from "../openapi/reply-schemas.js";
import type { JsonSchema } from "../validation/json-schema.js";
import { nullable } from "../validation/json-schema.js";

const money = nullable({ type: "number", minimum: 0, maximum: 999_999_999 });
const visitCount = nullable({ type: "integer", minimum: 0, maximum: 10_000 });
const remainingInput = {
  type: "object",
  additionalProperties: false,
  properties: { total: money, remaining: money },
} as const;

const benefitsInput = {
  type: "object",
  additionalProperties: false,
  properties: {
    copay: money,
    coinsurance_percent: nullable({ type: "number", minimum: 0, maximum: 100 }),
    deductible: remainingInput,
    out_of_pocket: remainingInput,
    visits: {
      type: "object",
      additionalProperties: false,
      properties: { limit: visitCount, used: visitCount, remaining: visitCount },
    },
    prior_authorization_required: nullable({ type: "boolean" }),
  },
} as const;

/** v2: ask the payer now (every field optional). */
export const v2EligibilityCheckSchema = {
  $id: "V2EligibilityCheckCreate",
  type: "object",
  additionalProperties: false,
  properties: {
    service_date: { type: "string", format: "date", description: "Default: today (UTC)" },
    service_types: {
      type: "array",
      minItems: 1,
      uniqueItems: true,
      items: { type: "string", enum: [...ELIGIBILITY_SERVICE_TYPES] },
      description: "X12 service type codes; default all four: 30, PT, AD, 33",
    },
  },
} as const;

/** v1: a result taken by phone or from a payer portal. */
export const v1ManualEligibilitySchema = {
  $id: "V1ManualEligibility",
  type: "object",
  additionalProperties: false,
  required: ["active"],
  properties: {
    service_date: { type: "string", format: "date", description: "Default: today (UTC)" },
    active: { type: "boolean" },
    plan_start_date: nullable({ type: "string", format: "date" }),
    plan_end_date: nullable({ type: "string", format: "date" }),
    benefits: {
      type: "object",
      additionalProperties: false,
      properties: Object.fromEntries(ELIGIBILITY_SERVICE_TYPES.map((t) => [t, benefitsInput])),
      description: "By X12 service type code",
    },
    reference: nullable({ type: "string", maxLength: 100, description: "The payer's call reference" }),
    notes: nullable({ type: "string", maxLength: 2000 }),
  },
} as const;

const remainingReply = replyObject({ total: numberOrNull, remaining: numberOrNull }, { title: "EligibilityAmount" });
const benefitsReply = replyObject(
  {
    copay: numberOrNull,
    coinsurance_percent: numberOrNull,
    deductible: remainingReply,
    out_of_pocket: remainingReply,
    visits: replyObject(
      { limit: integerOrNull, used: integerOrNull, remaining: integerOrNull },
      { title: "EligibilityVisits" },
    ),
    prior_authorization_required: { type: ["boolean", "null"] },
  },
  { title: "ServiceBenefits" },
);

/** A check as both contracts show it; `id` is a string on v2 and a number on v1 (each contract's ids). */
export function eligibilityCheckSchema(idType: JsonSchema, withRaw: boolean): JsonSchema {
  return replyObject(
    {
      id: idType,
      patient_id: idType,
      coverage_id: idType,
      source: oneOfStrings(["realtime", "manual"]),
      status: oneOfStrings(ELIGIBILITY_CHECK_STATUSES),
      service_date: date,
      result: orNull(
        replyObject(
          {
            active: boolean,
            plan_start_date: dateOrNull,
            plan_end_date: dateOrNull,
            benefits: {
              type: "object",
              additionalProperties: false,
              properties: Object.fromEntries(ELIGIBILITY_SERVICE_TYPES.map((t) => [t, benefitsReply])),
              description: "By X12 service type code: those the payer reported",
            },
          },
          { title: "EligibilityResult" },
        ),
      ),
      rejections: arrayOf(
        replyObject(
          {
            code: described(plainText, "AAA03, the reject reason code"),
            reason: described(plainText, "What the code means (005010X279A1)"),
            follow_up: described(textOrNull, "AAA04 in words"),
            loop: described(textOrNull, "The 271 loop it came in (2000A, 2100A, 2100B, 2000C, 2100C, 2110C…)"),
            valid_request: described(orNull(boolean), "AAA01: the payer took the request as valid"),
            retryable: described(boolean, "The same check may be sent again"),
            retry_after: described(textOrNull, "From when (a W or X follow-up asks to wait); null when not retryable"),
          },
          { title: "EligibilityRejection" },
        ),
      ),
      error_code: described(textOrNull, "Why a failed check got no answer"),
      error_message: textOrNull,
      reference: textOrNull,
      notes: textOrNull,
      checked_at: plainText,
      ...(withRaw
        ? {
            request_x12: described(textOrNull, "The 270 sent (audit)"),
            response_x12: described(textOrNull, "The 271 received (audit)"),
          }
        : {}),
    },
    { title: withRaw ? "EligibilityCheckWithDocuments" : "EligibilityCheck" },
  );
}

const benefitsView = (b: ServiceBenefits) => ({
  copay: b.copay,
  coinsurance_percent: b.coinsurancePercent,
  deductible: { ...b.deductible },
  out_of_pocket: { ...b.outOfPocket },
  visits: { ...b.visits },
  prior_authorization_required: b.priorAuthorizationRequired,
});

const resultView = (r: EligibilityResult) => ({
  active: r.active,
  plan_start_date: r.planStartDate,
  plan_end_date: r.planEndDate,
  benefits: Object.fromEntries(Object.entries(r.benefits).map(([t, b]) => [t, benefitsView(b)])),
});

export function eligibilityCheckView(
  c: EligibilityCheck,
  options: { id: (n: number) => string | number; time: (d: Date) => string; withRaw: boolean },
) {
  return {
    id: options.id(c.id),
    patient_id: options.id(c.patientId),
    coverage_id: options.id(c.coverageId),
    source: c.source,
    status: c.status,
    service_date: c.serviceDate,
    result: c.result ? resultView(c.result) : null,
    rejections: c.rejections.map((r) => rejectionDetails(r, c.checkedAt, options.time)),
    error_code: c.errorCode,
    error_message: c.errorMessage,
    reference: c.reference,
    notes: c.notes,
    checked_at: options.time(c.checkedAt),
    ...(options.withRaw ? { request_x12: c.request, response_x12: c.response } : {}),
  };
}

type ManualBody = Static<typeof v1ManualEligibilitySchema>;
type BenefitsBody = NonNullable<NonNullable<ManualBody["benefits"]>["PT"]>;

const benefitsFromBody = (b: BenefitsBody): ServiceBenefits => ({
  copay: b.copay ?? null,
  coinsurancePercent: b.coinsurance_percent ?? null,
  deductible: { total: b.deductible?.total ?? null, remaining: b.deductible?.remaining ?? null },
  outOfPocket: { total: b.out_of_pocket?.total ?? null, remaining: b.out_of_pocket?.remaining ?? null },
  visits: { limit: b.visits?.limit ?? null, used: b.visits?.used ?? null, remaining: b.visits?.remaining ?? null },
  priorAuthorizationRequired: b.prior_authorization_required ?? null,
});

export function manualEligibilityFromBody(b: ManualBody): ManualEligibility {
  return {
    serviceDate: b.service_date,
    reference: b.reference,
    notes: b.notes,
    result: {
      active: b.active,
      planStartDate: b.plan_start_date ?? null,
      planEndDate: b.plan_end_date ?? null,
      benefits: Object.fromEntries(
        Object.entries(b.benefits ?? {}).map(([t, v]) => [t, benefitsFromBody(v as BenefitsBody)]),
      ),
    },
  };
}

export const ELIGIBILITY_FIELDS: FieldNames = Object.freeze({
  serviceDate: "service_date",
  serviceTypes: "service_types",
  payerRef: "payer_ref",
  planStartDate: "plan_start_date",
  planEndDate: "plan_end_date",
  coinsurancePercent: "coinsurance_percent",
  outOfPocket: "out_of_pocket",
  priorAuthorizationRequired: "prior_authorization_required",
});

/** A warning on a case from the newest answered checks of its coverages. */
export const eligibilityWarningSchema = replyObject(
  {
    code: oneOfStrings(["PRIOR_AUTHORIZATION_REQUIRED", "VISITS_REMAINING_BELOW_PLAN", "COVERAGE_INACTIVE"]),
    coverage_id: plainText,
    eligibility_check_id: plainText,
    message: plainText,
  },
  { title: "EligibilityWarning" },
);

export const eligibilityWarningView = (w: EligibilityWarning) => ({
  code: w.code,
  coverage_id: String(w.coverageId),
  eligibility_check_id: String(w.checkId),
  message: w.message,
});
