import { PROVIDER_LIMITS, type Provider, type ProviderChanges } from "@openpractice/core";
import type { FieldNames } from "../contracts/field-names.js";
import { zonelessUtc } from "../patients/v1-patient-contract.js";
import {
  arrayOf,
  boolean,
  described,
  id,
  idOrNull,
  plainText,
  replyObject,
  textOrNull,
  zonelessTime,
} from "../openapi/reply-schemas.js";

/** Domain field → v1 wire field, for validation errors. */
export const V1_DOCTOR_FIELDS: FieldNames = {
  userId: "doctor_id",
  firstName: "first_name",
  lastName: "last_name",
  licenceNumber: "licence_number",
  licenceState: "licence_state",
  clinicIds: "clinic_ids",
  supervisingUserId: "supervising_physician_id",
  requiresCosign: "requires_cosign",
};

/** A doctor as v1 shows it: v2's provider, keyed by doctor_id (the user id), ids as integers, times zoneless UTC. */
export const v1DoctorSchema = replyObject(
  {
    doctor_id: described(id, "The user id: the user_id claim of their tokens, and v1 booking's doctor_id"),
    provider_id: described(id, "The same provider's id on v2 (/v2/providers/{provider_id})"),
    first_name: plainText,
    last_name: plainText,
    npi: textOrNull,
    credentials: arrayOf(plainText),
    licence_number: textOrNull,
    licence_state: textOrNull,
    specialities: arrayOf(plainText),
    clinic_ids: arrayOf(id),
    supervising_physician_id: described(idOrNull, "The doctor id of the provider who co-signs their notes"),
    requires_cosign: boolean,
    active: boolean,
    created_at: zonelessTime,
    updated_at: zonelessTime,
  },
  {
    title: "V1Doctor",
    examples: [
      {
        doctor_id: 201,
        provider_id: 14,
        first_name: "Sam",
        last_name: "Ortiz",
        npi: "1456789019",
        credentials: ["DPT"],
        licence_number: "PT-004211",
        licence_state: "IL",
        specialities: ["vestibular"],
        clinic_ids: [3],
        supervising_physician_id: null,
        requires_cosign: false,
        active: true,
        created_at: "2026-11-28T09:12:40",
        updated_at: "2026-11-28T09:12:40",
      },
    ],
  },
);

export const v1DoctorView = (p: Provider) => ({
  doctor_id: p.userId,
  provider_id: p.id,
  first_name: p.firstName,
  last_name: p.lastName,
  npi: p.npi,
  credentials: p.credentials,
  licence_number: p.licenceNumber,
  licence_state: p.licenceState,
  specialities: p.specialities,
  clinic_ids: p.clinicIds,
  supervising_physician_id: p.supervisingUserId,
  requires_cosign: p.requiresCosign,
  active: p.active,
  created_at: zonelessUtc(p.createdAt),
  updated_at: zonelessUtc(p.updatedAt),
});

const name = { type: "string", minLength: 1, maxLength: PROVIDER_LIMITS.nameMax } as const;
const doctorProperties = {
  first_name: name,
  last_name: name,
  npi: { type: ["string", "null"], pattern: "^[0-9]{10}$", description: "10 digits with a valid check digit" },
  credentials: {
    type: "array",
    maxItems: PROVIDER_LIMITS.maxCredentials,
    items: { type: "string", pattern: "^[A-Z][A-Z0-9-]{0,11}$" },
    description: "e.g. DPT, PTA, DC, OTR, CCC-SLP",
  },
  licence_number: { type: ["string", "null"], minLength: 1, maxLength: PROVIDER_LIMITS.licenceMax },
  licence_state: { type: ["string", "null"], pattern: "^[A-Z]{2}$" },
  specialities: {
    type: "array",
    maxItems: PROVIDER_LIMITS.maxSpecialities,
    items: { type: "string", minLength: 1, maxLength: 30 },
  },
  clinic_ids: { type: "array", maxItems: PROVIDER_LIMITS.maxClinics, items: { type: "integer", minimum: 1 } },
  supervising_physician_id: {
    type: ["integer", "null"],
    minimum: 1,
    description: "The doctor id of the provider who co-signs their notes",
  },
  requires_cosign: { type: "boolean", description: "Their notes need co-signature whatever the organisation says" },
} as const;

/** POST /apis/v1/doctor. */
export const v1DoctorCreateSchema = {
  type: "object",
  additionalProperties: false,
  required: ["doctor_id", "first_name", "last_name"],
  properties: {
    doctor_id: { type: "integer", minimum: 1, description: "Their user id in your identity provider; never changes" },
    ...doctorProperties,
  },
} as const;

/** POST /apis/v1/doctor/{doctor_id}: partial; null clears, lists replace; active false deactivates. */
export const v1DoctorUpdateSchema = {
  type: "object",
  additionalProperties: false,
  minProperties: 1,
  properties: { ...doctorProperties, active: { type: "boolean" } },
} as const;

type DoctorBody = {
  first_name?: string;
  last_name?: string;
  npi?: string | null;
  credentials?: string[];
  licence_number?: string | null;
  licence_state?: string | null;
  specialities?: string[];
  clinic_ids?: number[];
  supervising_physician_id?: number | null;
  requires_cosign?: boolean;
  active?: boolean;
};

/** A body's fields in the service's names (absent stays absent). */
export function doctorChangesFromBody(b: DoctorBody): ProviderChanges {
  const out: Record<string, unknown> = {
    firstName: b.first_name,
    lastName: b.last_name,
    npi: b.npi,
    credentials: b.credentials,
    licenceNumber: b.licence_number,
    licenceState: b.licence_state,
    specialities: b.specialities,
    clinicIds: b.clinic_ids,
    supervisingUserId: b.supervising_physician_id,
    requiresCosign: b.requires_cosign,
    active: b.active,
  };
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined)) as ProviderChanges;
}

export const v1DoctorListQuery = {
  type: "object",
  additionalProperties: false,
  properties: {
    clinic_id: { type: "integer", minimum: 1, description: "Doctors who work at this clinic" },
    active: {
      type: "string",
      enum: ["true", "false", "all"],
      default: "true",
      description: "true (the default): active doctors; false: deactivated ones; all: both",
    },
    speciality: { type: "string", minLength: 1, maxLength: 30, description: "One of their specialities, any case" },
    page: { type: "integer", minimum: 1, default: 1 },
    size: { type: "integer", minimum: 1, maximum: PROVIDER_LIMITS.maxPerPage, default: PROVIDER_LIMITS.defaultPerPage },
  },
} as const;
