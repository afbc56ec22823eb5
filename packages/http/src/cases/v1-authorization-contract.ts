import {
  AUTHORIZATION_STATUSES,
  requireServiceCaseId,
  serviceCaseId,
  type AuthorizationChanges,
  type AuthorizationDraft,
  type AuthorizationView,
  type ReferringPhysician,
  type ReferringPhysicianChanges,
  type ReferringPhysicianDraft,
} from "@openpractice/core";
import { caseIdBodySchema } from "../contracts/case-id.js";
import type { FieldNames } from "../contracts/field-names.js";
import { zonelessUtc } from "../patients/v1-patient-contract.js";
import type { Static } from "../define-route.js";
import {
  arrayOf,
  boolean,
  date as dateReply,
  dateOrNull,
  described,
  id,
  integer,
  oneOfStrings,
  replyObject,
  serviceCaseIdText,
  plainText,
  textOrNull,
  zonelessTime,
} from "../openapi/reply-schemas.js";
import { nullable, type JsonSchema } from "../validation/json-schema.js";
import { icdCodeSchema, v1IcdCodeReplySchema } from "./v1-case-contract.js";

const text = (max: number) => nullable({ type: "string", maxLength: max });
const date = { type: "string", format: "date", description: "YYYY-MM-DD" } as const;

// ---- Referring physicians -------------------------------------------------

const physicianProperties = {
  first_name: { type: "string", minLength: 1, maxLength: 100 },
  last_name: { type: "string", minLength: 1, maxLength: 100 },
  npi: nullable({ type: ["string", "integer"], description: "10 digits with a valid check digit" }),
  phone_number: nullable({ type: ["string", "integer"] }),
  fax_number: nullable({ type: ["string", "integer"] }),
  address1: text(200),
  address2: text(200),
  city: text(200),
  state: text(2),
  zip: nullable({ type: ["string", "integer"], description: "5 digits or ZIP+4" }),
} as const;

export const v1PhysicianCreateSchema = {
  $id: "V1ReferringPhysicianCreate",
  type: "object",
  additionalProperties: false,
  required: ["first_name", "last_name"],
  properties: physicianProperties,
} as const;
export const v1PhysicianUpdateSchema = {
  $id: "V1ReferringPhysicianUpdate",
  type: "object",
  additionalProperties: false,
  minProperties: 1,
  properties: physicianProperties,
} as const;

export const V1_PHYSICIAN_FIELDS: FieldNames = Object.freeze({
  firstName: "first_name",
  lastName: "last_name",
  phoneNumber: "phone_number",
  faxNumber: "fax_number",
});

/** Integers sent for NPI, phone, fax or zip become their digits (a 5-digit zip keeps leading zeros only as a string). */
const asText = (v: unknown) => (v === undefined ? undefined : v === null ? null : String(v));

export type V1PhysicianCreate = Static<typeof v1PhysicianCreateSchema>;
export type V1PhysicianUpdate = Static<typeof v1PhysicianUpdateSchema>;

export function v1PhysicianChangesFromBody(b: V1PhysicianUpdate): ReferringPhysicianChanges {
  return {
    firstName: b.first_name,
    lastName: b.last_name,
    npi: asText(b.npi),
    phoneNumber: asText(b.phone_number),
    faxNumber: asText(b.fax_number),
    address1: b.address1,
    address2: b.address2,
    city: b.city,
    state: b.state,
    zip: asText(b.zip),
  };
}

/** A new physician: what the body leaves out is unknown (null). */
export function v1PhysicianDraftFromBody(b: V1PhysicianCreate): ReferringPhysicianDraft {
  const c = v1PhysicianChangesFromBody(b);
  return {
    firstName: b.first_name,
    lastName: b.last_name,
    npi: c.npi ?? null,
    phoneNumber: c.phoneNumber ?? null,
    faxNumber: c.faxNumber ?? null,
    address1: c.address1 ?? null,
    address2: c.address2 ?? null,
    city: c.city ?? null,
    state: c.state ?? null,
    zip: c.zip ?? null,
  };
}

/** A physician's own fields as both contracts name them (ids and times differ: each contract writes its own). */
export const physicianWireFields = (p: ReferringPhysician) => ({
  first_name: p.firstName,
  last_name: p.lastName,
  npi: p.npi,
  phone_number: p.phoneNumber,
  fax_number: p.faxNumber,
  address1: p.address1,
  address2: p.address2,
  city: p.city,
  state: p.state,
  zip: p.zip,
});

export function v1PhysicianView(p: ReferringPhysician) {
  return {
    ref_physician_id: p.id,
    ...physicianWireFields(p),
    created_at: zonelessUtc(p.createdAt),
    updated_at: zonelessUtc(p.updatedAt),
  };
}

// ---- Authorizations -------------------------------------------------------

const cptSchema = {
  type: "object",
  additionalProperties: false,
  required: ["cpt_code", "authorized_units"],
  properties: {
    cpt_code: { type: "string", minLength: 1, maxLength: 5 },
    authorized_units: { type: "integer", minimum: 0, maximum: 10000 },
  },
} as const;

const authorizationProperties = {
  reference_number: { type: "string", minLength: 1, maxLength: 100 },
  payer_name: { type: "string", minLength: 1, maxLength: 100 },
  payer_id: text(50),
  plan_start_date: nullable(date),
  plan_end_date: nullable(date),
  effective_start_date: date,
  effective_end_date: date,
  authorized_visits: { type: "integer", minimum: 1, maximum: 10000 },
  previously_consumed_visits: { type: "integer", minimum: 0, maximum: 10000 },
  status: { type: "string", enum: [...AUTHORIZATION_STATUSES] },
  icd_codes: { type: "array", maxItems: 50, items: icdCodeSchema },
  cpt_code_authorization_details: { type: "array", maxItems: 100, items: cptSchema },
} as const;

export const v1AuthorizationCreateSchema = {
  $id: "V1AuthorizationCreate",
  type: "object",
  additionalProperties: false,
  required: [
    "service_case_id",
    "reference_number",
    "payer_name",
    "effective_start_date",
    "effective_end_date",
    "authorized_visits",
  ],
  properties: { service_case_id: caseIdBodySchema, ...authorizationProperties },
} as const;
export const v1AuthorizationUpdateSchema = {
  $id: "V1AuthorizationUpdate",
  type: "object",
  additionalProperties: false,
  minProperties: 1,
  properties: authorizationProperties,
} as const;

export const V1_AUTHORIZATION_FIELDS: FieldNames = Object.freeze({
  caseId: "service_case_id",
  referenceNumber: "reference_number",
  payerName: "payer_name",
  payerId: "payer_id",
  planStartDate: "plan_start_date",
  planEndDate: "plan_end_date",
  effectiveStartDate: "effective_start_date",
  effectiveEndDate: "effective_end_date",
  authorizedVisits: "authorized_visits",
  previouslyConsumedVisits: "previously_consumed_visits",
  icdCodes: "icd_codes",
  cptCodeAuthorizationDetails: "cpt_code_authorization_details",
  cptCode: "cpt_code",
  authorizedUnits: "authorized_units",
});

export type V1AuthorizationCreate = Static<typeof v1AuthorizationCreateSchema>;
export type V1AuthorizationUpdate = Static<typeof v1AuthorizationUpdateSchema>;

export function v1AuthorizationChangesFromBody(b: V1AuthorizationUpdate): AuthorizationChanges {
  return {
    referenceNumber: b.reference_number,
    payerName: b.payer_name,
    payerId: b.payer_id,
    planStartDate: b.plan_start_date,
    planEndDate: b.plan_end_date,
    effectiveStartDate: b.effective_start_date,
    effectiveEndDate: b.effective_end_date,
    authorizedVisits: b.authorized_visits,
    previouslyConsumedVisits: b.previously_consumed_visits,
    status: b.status,
    icdCodes: b.icd_codes?.map((c) => ({
      id: c.id,
      code: c.code,
      description: c.description ?? null,
      revision: c.revision,
    })),
    cptCodeAuthorizationDetails: b.cpt_code_authorization_details?.map((d) => ({
      cptCode: d.cpt_code,
      authorizedUnits: d.authorized_units,
    })),
  };
}

export const v1AuthorizationDraftFromBody = (b: V1AuthorizationCreate): AuthorizationDraft =>
  ({
    ...v1AuthorizationChangesFromBody(b),
    caseId: requireServiceCaseId(b.service_case_id, "caseId"),
  }) as AuthorizationDraft;

export function v1AuthorizationView(v: AuthorizationView) {
  const a = v.authorization;
  return {
    authorization_id: a.id,
    service_case_id: serviceCaseId(a.caseId),
    patient_id: a.patientId,
    organisation_id: a.organisationId,
    reference_number: a.referenceNumber,
    payer_name: a.payerName,
    payer_id: a.payerId,
    plan_start_date: a.planStartDate,
    plan_end_date: a.planEndDate,
    effective_start_date: a.effectiveStartDate,
    effective_end_date: a.effectiveEndDate,
    authorized_visits: a.authorizedVisits,
    previously_consumed_visits: a.previouslyConsumedVisits,
    current_visits: v.currentVisits,
    booked_visits: v.bookedVisits,
    remaining_visits: v.remainingVisits,
    status: v.reportedStatus,
    icd_codes: a.icdCodes,
    cpt_code_authorization_details: a.cptCodeAuthorizationDetails.map((d) => ({
      cpt_code: d.cptCode,
      authorized_units: d.authorizedUnits,
    })),
    created_at: zonelessUtc(a.createdAt),
    updated_at: zonelessUtc(a.updatedAt),
  };
}

/** A referring physician of the registry (v1PhysicianView). */
export const v1PhysicianSchema: JsonSchema = replyObject(
  {
    ref_physician_id: id,
    first_name: plainText,
    last_name: plainText,
    npi: described(textOrNull, "10 digits"),
    phone_number: textOrNull,
    fax_number: textOrNull,
    address1: textOrNull,
    address2: textOrNull,
    city: textOrNull,
    state: textOrNull,
    zip: textOrNull,
    created_at: zonelessTime,
    updated_at: zonelessTime,
  },
  { title: "V1ReferringPhysician" },
);

/** An authorization with its visits counted (v1AuthorizationView). */
export const v1AuthorizationSchema: JsonSchema = replyObject(
  {
    authorization_id: id,
    service_case_id: serviceCaseIdText,
    patient_id: id,
    organisation_id: id,
    reference_number: plainText,
    payer_name: plainText,
    payer_id: textOrNull,
    plan_start_date: dateOrNull,
    plan_end_date: dateOrNull,
    effective_start_date: dateReply,
    effective_end_date: dateReply,
    authorized_visits: integer,
    previously_consumed_visits: integer,
    current_visits: described(integer, "Completed visits in the window, including those consumed before tracking"),
    booked_visits: described(integer, "Visits booked in the window and not yet completed"),
    remaining_visits: described(integer, "Authorized visits neither completed nor booked"),
    status: described(oneOfStrings(AUTHORIZATION_STATUSES), "EXPIRED once the effective end date has passed"),
    icd_codes: arrayOf(v1IcdCodeReplySchema),
    cpt_code_authorization_details: arrayOf(
      replyObject({ cpt_code: plainText, authorized_units: integer }, { title: "V1CptAuthorization" }),
    ),
    created_at: zonelessTime,
    updated_at: zonelessTime,
  },
  { title: "V1Authorization" },
);

/** The answer to DELETE of an authorization. */
export const v1AuthorizationDeletedSchema: JsonSchema = replyObject({
  authorization_id: id,
  deleted: { ...boolean, const: true },
});
