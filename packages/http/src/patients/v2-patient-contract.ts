import {
  APPOINTMENT_STATUSES,
  MEDICAL_RECORDS_PER_PATIENT,
  PATIENT_LIST_LIMITS,
  PATIENT_LIST_ORDERS,
  PATIENT_LIST_STATUSES,
  PATIENT_SORT_FIELDS,
  type Appointment,
  type MedicalRecord,
  type Patient,
  type PatientChanges,
  type PatientDraft,
  type Sex,
} from "@openpractice/core";
import type { FieldNames } from "../contracts/field-names.js";
import { v2Project } from "../contracts/v2-contract.js";
import type { Static } from "../define-route.js";
import {
  arrayOf,
  date,
  dateTime,
  described,
  fieldSelection,
  idText,
  oneOfStrings,
  replyObject,
  plainText,
  textOrNull,
} from "../openapi/reply-schemas.js";
import { nullable, type JsonSchema } from "../validation/json-schema.js";
import { fieldHints } from "./patient-field-counterparts.js";

const GENDER_TO_SEX: Readonly<Record<string, Sex>> = {
  male: "MALE",
  female: "FEMALE",
  other: "OTHER",
  unknown: "UNDEFINED",
};
const SEX_TO_GENDER: Readonly<Record<Sex, string>> = {
  MALE: "male",
  FEMALE: "female",
  OTHER: "other",
  UNDEFINED: "unknown",
};
export const V2_EXPANSIONS = ["medical_records", "appointments", "insurance"] as const;
export type V2Expansion = (typeof V2_EXPANSIONS)[number];

const text = (max: number) => ({ type: "string", maxLength: max }) as const;
const name = { type: "string", minLength: 1, maxLength: 100 } as const;

const v2Properties = {
  first_name: name,
  last_name: name,
  middle_name: nullable(text(100)),
  email: nullable({ type: "string", format: "email", maxLength: 254 }),
  phone: nullable(text(30)),
  date_of_birth: { type: "string", format: "date" },
  gender: { type: "string", enum: Object.keys(GENDER_TO_SEX) },
  status: { type: "string", enum: ["active", "inactive"] },
  address: nullable({
    type: "object",
    additionalProperties: false,
    ...fieldHints("v2", "address"),
    properties: {
      street: nullable(text(200)),
      city: nullable(text(100)),
      state: nullable({
        type: "string",
        pattern: "^[A-Z]{2}$",
        description: "a 2-letter upper-case state or province code",
      }),
      zip_code: nullable({
        type: "string",
        pattern: "^[A-Za-z0-9 -]{3,10}$",
        description: "3 to 10 letters, digits, spaces or dashes",
      }),
      country: nullable({ type: "string", pattern: "^[A-Z]{2}$", description: "an ISO 3166-1 alpha-2 code" }),
    },
  }),
  emergency_contact: nullable({
    type: "object",
    additionalProperties: false,
    properties: { name: nullable(text(200)), relationship: nullable(text(50)), phone: nullable(text(30)) },
  }),
  insurance: nullable({
    type: "object",
    additionalProperties: false,
    properties: { provider: nullable(text(200)), policy_number: nullable(text(50)), group_number: nullable(text(50)) },
  }),
} as const;

export const v2PatientCreateSchema = {
  $id: "V2PatientCreate",
  type: "object",
  additionalProperties: false,
  ...fieldHints("v2", "patient"),
  required: ["first_name", "last_name", "date_of_birth"],
  properties: v2Properties,
} as const;

export const v2PatientUpdateSchema = {
  $id: "V2PatientUpdate",
  type: "object",
  additionalProperties: false,
  ...fieldHints("v2", "patient"),
  minProperties: 1,
  properties: v2Properties,
} as const;

const V2_PATIENT_INSURANCE_SCHEMA = replyObject(
  { provider: textOrNull, policy_number: textOrNull, group_number: textOrNull },
  { title: "V2PatientInsurance" },
);

/** A patient as v2 shows it (v2PatientView): every field is sent, null when empty. */
export const v2PatientSchema: JsonSchema = replyObject(
  {
    id: idText,
    first_name: plainText,
    last_name: plainText,
    middle_name: textOrNull,
    email: textOrNull,
    phone: textOrNull,
    date_of_birth: date,
    gender: oneOfStrings(Object.keys(GENDER_TO_SEX)),
    status: oneOfStrings(["active", "inactive"]),
    address: replyObject(
      {
        street: textOrNull,
        city: textOrNull,
        state: textOrNull,
        zip_code: textOrNull,
        country: described(textOrNull, "ISO 3166-1 alpha-2 code"),
      },
      { title: "V2PatientAddress" },
    ),
    emergency_contact: replyObject(
      { name: textOrNull, relationship: textOrNull, phone: textOrNull },
      { title: "V2EmergencyContact" },
    ),
    insurance: V2_PATIENT_INSURANCE_SCHEMA,
    created_at: dateTime,
    updated_at: dateTime,
  },
  {
    title: "V2Patient",
    examples: [
      {
        id: "1042",
        first_name: "Maria",
        last_name: "Lopez",
        middle_name: null,
        email: "maria.lopez@example.com",
        phone: "+1-312-555-0142",
        date_of_birth: "1984-07-21",
        gender: "female",
        status: "active",
        address: { street: "1200 W Harrison St", city: "Chicago", state: "IL", zip_code: "60607", country: "US" },
        emergency_contact: { name: "Carlos Lopez", relationship: "spouse", phone: "+1-312-555-0199" },
        insurance: {
          provider: "Blue Cross Blue Shield of Illinois",
          policy_number: "XOF123456789",
          group_number: "G-2210",
        },
        created_at: "2025-03-14T15:02:11.000Z",
        updated_at: "2025-03-14T15:02:11.000Z",
      },
    ],
  },
);

/**
 * A patient as GET /v2/patients and GET /v2/patients/{id} send it: `fields` keeps id and the fields named, and
 * `expand` adds medical_records and appointments and turns insurance into a list of coverages.
 */
export const v2PatientReadSchema: JsonSchema = fieldSelection(v2PatientSchema, "V2PatientFields", {
  insurance: {
    description: "The insurance object; with expand=insurance, the list of the patient's coverages (empty or one)",
    anyOf: [V2_PATIENT_INSURANCE_SCHEMA, arrayOf(V2_PATIENT_INSURANCE_SCHEMA)],
  },
  medical_records: arrayOf(
    replyObject(
      {
        id: described(plainText, "The note's context_id"),
        date: described(date, "Service date in the clinic's time zone"),
        diagnosis: described(
          textOrNull,
          "ICD-10 code and description of the Assessment's primary diagnosis; else its treating diagnosis text; null when it has neither",
        ),
        provider_id: described(idText, "The rendering physician's user id"),
      },
      { title: "V2MedicalRecord" },
    ),
    `Only with expand=medical_records: the patient's completed SOAP notes, newest service date first, at most ${MEDICAL_RECORDS_PER_PATIENT}`,
  ),
  appointments: arrayOf(
    replyObject(
      {
        id: idText,
        date: described(dateTime, "Start time"),
        status: oneOfStrings(
          APPOINTMENT_STATUSES.map((st) => st.toLowerCase()),
          "The appointment's status, lower case",
        ),
        provider_id: described(idText, "The provider's user id (v1 doctor_id)"),
      },
      { title: "V2PatientAppointment" },
    ),
    "Only with expand=appointments: the patient's appointments by start time, at most 100",
  ),
});

/** Field names `fields=` may select (id is always included). */
export const V2_PATIENT_FIELDS_SELECTABLE = Object.keys(v2PatientSchema.properties as object);

const commaList = (allowed: readonly string[], description: string) =>
  ({
    type: "string",
    pattern: `^(${allowed.join("|")})(,(${allowed.join("|")}))*$`,
    description,
  }) as const;

/** Query parameters of GET /v2/patients; ajv coerces the strings, the OpenAPI document lists them. */
export const v2PatientListQuerySchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    page: { type: "integer", minimum: 1, default: 1, description: "1-based page number" },
    per_page: {
      type: "integer",
      minimum: PATIENT_LIST_LIMITS.minPerPage,
      maximum: PATIENT_LIST_LIMITS.maxPerPage,
      default: PATIENT_LIST_LIMITS.defaultPerPage,
    },
    search: {
      type: "string",
      maxLength: PATIENT_LIST_LIMITS.maxSearchLength,
      description: "Words that must all occur in the name, email or phone (substring, case- and accent-insensitive)",
    },
    created_after: { type: "string", description: "ISO 8601 date or date-time with zone; inclusive" },
    created_before: { type: "string", description: "ISO 8601 date or date-time with zone; exclusive" },
    updated_after: { type: "string", description: "ISO 8601 date or date-time with zone; inclusive" },
    updated_before: { type: "string", description: "ISO 8601 date or date-time with zone; exclusive" },
    sort: { type: "string", enum: [...PATIENT_SORT_FIELDS], default: "created_at" },
    order: { type: "string", enum: [...PATIENT_LIST_ORDERS], default: "desc" },
    status: { type: "string", enum: [...PATIENT_LIST_STATUSES], default: "active" },
    fields: commaList(V2_PATIENT_FIELDS_SELECTABLE, "a comma-separated list of patient fields"),
    expand: commaList([...V2_EXPANSIONS], "a comma-separated list of medical_records, appointments, insurance"),
  },
} as const;

/** Query parameters of GET /v2/patients/{id}. */
export const v2PatientReadQuerySchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    fields: v2PatientListQuerySchema.properties.fields,
    expand: v2PatientListQuerySchema.properties.expand,
  },
} as const;

/** Domain field → v2 wire field, for error messages. */
export const V2_PATIENT_FIELDS: FieldNames = Object.freeze({
  firstName: "first_name",
  middleName: "middle_name",
  lastName: "last_name",
  dateOfBirth: "date_of_birth",
  sex: "gender",
  phone: "phone",
  email: "email",
  status: "status",
  "address.line1": "address.street",
  "address.city": "address.city",
  "address.state": "address.state",
  "address.postalCode": "address.zip_code",
  "address.country": "address.country",
  "emergencyContact.name": "emergency_contact.name",
  "emergencyContact.relationship": "emergency_contact.relationship",
  "emergencyContact.phone": "emergency_contact.phone",
  "insurance.provider": "insurance.provider",
  "insurance.policyNumber": "insurance.policy_number",
  "insurance.groupNumber": "insurance.group_number",
});

export type V2PatientCreate = Static<typeof v2PatientCreateSchema>;
export type V2PatientUpdate = Static<typeof v2PatientUpdateSchema>;
export type V2PatientListQuery = Static<typeof v2PatientListQuerySchema>;

function pick<T extends object>(
  source: T | null | undefined,
  pairs: ReadonlyArray<readonly [keyof T & string, string]>,
) {
  if (source === null) return null;
  if (source === undefined) return undefined;
  const out: Record<string, unknown> = {};
  for (const [wire, domain] of pairs) if (source[wire] !== undefined) out[domain] = source[wire];
  return out;
}

/** A validated v2 body as domain changes. `street` is one line: setting it clears the v1 second line. */
export function v2ChangesFromBody(b: V2PatientUpdate): PatientChanges {
  const c: PatientChanges = {};
  if (b.first_name !== undefined) c.firstName = b.first_name;
  if (b.last_name !== undefined) c.lastName = b.last_name;
  if (b.middle_name !== undefined) c.middleName = b.middle_name;
  if (b.date_of_birth !== undefined) c.dateOfBirth = b.date_of_birth;
  const sex = b.gender === undefined ? undefined : GENDER_TO_SEX[b.gender]; // the schema's enum: always found
  if (sex !== undefined) c.sex = sex;
  if (b.phone !== undefined) c.phone = b.phone;
  if (b.email !== undefined) c.email = b.email;
  if (b.status !== undefined) c.status = b.status;
  const address = pick(b.address, [
    ["street", "line1"],
    ["city", "city"],
    ["state", "state"],
    ["zip_code", "postalCode"],
    ["country", "country"],
  ]);
  if (address !== undefined) c.address = address && "line1" in address ? { ...address, line2: null } : address;
  const contact = pick(b.emergency_contact, [
    ["name", "name"],
    ["relationship", "relationship"],
    ["phone", "phone"],
  ]);
  if (contact !== undefined) c.emergencyContact = contact;
  const insurance = pick(b.insurance, [
    ["provider", "provider"],
    ["policy_number", "policyNumber"],
    ["group_number", "groupNumber"],
  ]);
  if (insurance !== undefined) c.insurance = insurance;
  return c;
}

export const v2DraftFromBody = (b: V2PatientCreate): PatientDraft => v2ChangesFromBody(b) as PatientDraft;

export function v2PatientView(p: Patient): Record<string, unknown> {
  const street = [p.address.line1, p.address.line2].filter(Boolean).join(", ") || null;
  return {
    id: String(p.id),
    first_name: p.firstName,
    last_name: p.lastName,
    middle_name: p.middleName,
    email: p.email,
    phone: p.phone,
    date_of_birth: p.dateOfBirth,
    gender: SEX_TO_GENDER[p.sex],
    status: p.status,
    address: {
      street,
      city: p.address.city,
      state: p.address.state,
      zip_code: p.address.postalCode,
      country: p.address.country,
    },
    emergency_contact: {
      name: p.emergencyContact.name,
      relationship: p.emergencyContact.relationship,
      phone: p.emergencyContact.phone,
    },
    insurance: {
      provider: p.insurance.provider,
      policy_number: p.insurance.policyNumber,
      group_number: p.insurance.groupNumber,
    },
    created_at: p.createdAt.toISOString(),
    updated_at: p.updatedAt.toISOString(),
  };
}

/** v2 appointment summary of an expanded patient (spec 2.5): ids as strings, lower-case status. */
const v2AppointmentSummary = (a: Appointment) => ({
  id: String(a.id),
  date: a.startsAt.toISOString(),
  status: a.status.toLowerCase(),
  provider_id: String(a.doctorId),
});

/** v2 medical record of an expanded patient (spec 2.5): a completed SOAP note. */
const v2MedicalRecord = (m: MedicalRecord) => ({
  id: m.contextId,
  date: m.date,
  diagnosis: m.diagnosis,
  provider_id: String(m.renderingPhysician),
});

/** What the expansions show, read by the route for the patient. */
export interface PatientExpansionData {
  appointments?: readonly Appointment[] | undefined;
  medicalRecords?: readonly MedicalRecord[] | undefined;
}

/**
 * Adds the requested expansions: the patient's medical records (completed SOAP
 * notes) and appointments as read by the route, and insurance as the list of
 * the patient's coverages (the one registered on the patient, when it has any
 * field set).
 */
export function withExpansions(
  view: Record<string, unknown>,
  expand: readonly V2Expansion[],
  data: PatientExpansionData = {},
): Record<string, unknown> {
  const out = { ...view };
  if (expand.includes("medical_records")) out.medical_records = (data.medicalRecords ?? []).map(v2MedicalRecord);
  if (expand.includes("appointments")) out.appointments = (data.appointments ?? []).map(v2AppointmentSummary);
  if (expand.includes("insurance")) {
    const card = view.insurance as Record<string, string | null>;
    out.insurance = Object.values(card).some((v) => v !== null) ? [card] : [];
  }
  return out;
}

/** Keeps id, the requested fields and any expansions. */
export function projectFields(
  view: Record<string, unknown>,
  fields: readonly string[] | undefined,
  expand: readonly V2Expansion[],
): Record<string, unknown> {
  return v2Project(view, fields ? [...fields, ...expand] : undefined);
}
