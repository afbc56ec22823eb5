import { SEXES, type Patient, type PatientChanges, type PatientDraft } from "@openpractice/core";
import type { FieldNames } from "../contracts/field-names.js";
import type { Static } from "../define-route.js";
import {
  date,
  described,
  id,
  idOrNull,
  oneOfStrings,
  replyObject,
  plainText,
  textOrNull,
  zonelessTime,
} from "../openapi/reply-schemas.js";
import { nullable, type JsonSchema } from "../validation/json-schema.js";
import { fieldHints } from "./patient-field-counterparts.js";

/** v1 shows timestamps zoneless (spec 9.3); they are UTC. */
export const zonelessUtc = (d: Date): string => d.toISOString().slice(0, 19);

const text = (max: number) => ({ type: "string", maxLength: max }) as const;
const name = { type: "string", minLength: 1, maxLength: 100 } as const;

const v1Address = {
  type: "object",
  additionalProperties: false,
  ...fieldHints("v1", "address"),
  properties: {
    line1: nullable(text(200)),
    line2: nullable(text(200)),
    city: nullable(text(100)),
    state: nullable({ type: "string", pattern: "^[A-Z]{2}$", description: "a 2-letter upper-case state code" }),
    postal_code: nullable({
      type: "string",
      pattern: "^[A-Za-z0-9 -]{3,10}$",
      description: "3 to 10 letters, digits, spaces or dashes",
    }),
    country: nullable({ type: "string", pattern: "^[A-Z]{2}$", description: "an ISO 3166-1 alpha-2 code" }),
  },
} as const;

const v1Properties = {
  first_name: name,
  last_name: name,
  middle_name: nullable(text(100)),
  date_of_birth: { type: "string", format: "date" },
  sex: { type: "string", enum: [...SEXES] },
  mobile: nullable(text(30)),
  email_address: nullable({ type: "string", format: "email", maxLength: 254 }),
  address: nullable(v1Address),
  clinic_id: nullable({ type: "integer", minimum: 1 }),
} as const;

export const v1PatientCreateSchema = {
  $id: "V1PatientCreate",
  type: "object",
  additionalProperties: false,
  ...fieldHints("v1", "patient"),
  required: ["first_name", "last_name", "date_of_birth"],
  properties: v1Properties,
} as const;

export const v1PatientUpdateSchema = {
  $id: "V1PatientUpdate",
  type: "object",
  additionalProperties: false,
  ...fieldHints("v1", "patient"),
  minProperties: 1,
  properties: { ...v1Properties, status: { type: "string", enum: ["ACTIVE", "INACTIVE"] } },
} as const;

const V1_PATIENT_ADDRESS_SCHEMA = replyObject(
  {
    line1: textOrNull,
    line2: textOrNull,
    city: textOrNull,
    state: described(textOrNull, "2-letter state code"),
    postal_code: textOrNull,
    country: described(textOrNull, "ISO 3166-1 alpha-2 code"),
  },
  { title: "V1PatientAddress" },
);

/** A patient as v1 shows it (v1PatientView): ids are numbers, every field is sent, null when empty. */
export const v1PatientSchema: JsonSchema = replyObject(
  {
    patient_id: id,
    organisation_id: id,
    clinic_id: idOrNull,
    first_name: plainText,
    middle_name: textOrNull,
    last_name: plainText,
    date_of_birth: date,
    sex: oneOfStrings(SEXES),
    mobile: textOrNull,
    email_address: textOrNull,
    address: V1_PATIENT_ADDRESS_SCHEMA,
    status: oneOfStrings(["ACTIVE", "INACTIVE"]),
    created_at: zonelessTime,
    updated_at: zonelessTime,
  },
  {
    title: "V1Patient",
    examples: [
      {
        patient_id: 1042,
        organisation_id: 1,
        clinic_id: 3,
        first_name: "Maria",
        middle_name: null,
        last_name: "Lopez",
        date_of_birth: "1984-07-21",
        sex: "FEMALE",
        mobile: "+1-312-555-0142",
        email_address: "maria.lopez@example.com",
        address: {
          line1: "1200 W Harrison St",
          line2: "Apt 4B",
          city: "Chicago",
          state: "IL",
          postal_code: "60607",
          country: "US",
        },
        status: "ACTIVE",
        created_at: "2025-03-14T15:02:11",
        updated_at: "2025-03-14T15:02:11",
      },
    ],
  },
);

/** Domain field → v1 wire field, for error messages. */
export const V1_PATIENT_FIELDS: FieldNames = Object.freeze({
  firstName: "first_name",
  middleName: "middle_name",
  lastName: "last_name",
  dateOfBirth: "date_of_birth",
  sex: "sex",
  phone: "mobile",
  email: "email_address",
  clinicId: "clinic_id",
  status: "status",
  "address.line1": "address.line1",
  "address.line2": "address.line2",
  "address.city": "address.city",
  "address.state": "address.state",
  "address.postalCode": "address.postal_code",
  "address.country": "address.country",
});

export type V1PatientCreate = Static<typeof v1PatientCreateSchema>;
export type V1PatientUpdate = Static<typeof v1PatientUpdateSchema>;
type V1Address = NonNullable<V1PatientUpdate["address"]>;

function v1AddressToDomain(a: V1Address | null | undefined) {
  if (a === null) return null;
  if (a === undefined) return undefined;
  const out: Record<string, unknown> = {};
  for (const [wire, domain] of [
    ["line1", "line1"],
    ["line2", "line2"],
    ["city", "city"],
    ["state", "state"],
    ["postal_code", "postalCode"],
    ["country", "country"],
  ] as const) {
    if (a[wire] !== undefined) out[domain] = a[wire];
  }
  return out;
}

/** A validated v1 body as domain changes; only fields present in the body appear. */
export function v1ChangesFromBody(b: V1PatientUpdate): PatientChanges {
  const c: PatientChanges = {};
  if (b.first_name !== undefined) c.firstName = b.first_name;
  if (b.last_name !== undefined) c.lastName = b.last_name;
  if (b.middle_name !== undefined) c.middleName = b.middle_name;
  if (b.date_of_birth !== undefined) c.dateOfBirth = b.date_of_birth;
  if (b.sex !== undefined) c.sex = b.sex;
  if (b.mobile !== undefined) c.phone = b.mobile;
  if (b.email_address !== undefined) c.email = b.email_address;
  if (b.clinic_id !== undefined) c.clinicId = b.clinic_id;
  if (b.status !== undefined) c.status = b.status === "ACTIVE" ? "active" : "inactive";
  const address = v1AddressToDomain(b.address);
  if (address !== undefined) c.address = address;
  return c;
}

export const v1DraftFromBody = (b: V1PatientCreate): PatientDraft => v1ChangesFromBody(b) as PatientDraft;

export function v1PatientView(p: Patient) {
  return {
    patient_id: p.id,
    organisation_id: p.organisationId,
    clinic_id: p.clinicId,
    first_name: p.firstName,
    middle_name: p.middleName,
    last_name: p.lastName,
    date_of_birth: p.dateOfBirth,
    sex: p.sex,
    mobile: p.phone,
    email_address: p.email,
    address: {
      line1: p.address.line1,
      line2: p.address.line2,
      city: p.address.city,
      state: p.address.state,
      postal_code: p.address.postalCode,
      country: p.address.country,
    },
    status: p.status === "active" ? "ACTIVE" : "INACTIVE",
    created_at: zonelessUtc(p.createdAt),
    updated_at: zonelessUtc(p.updatedAt),
  };
}
