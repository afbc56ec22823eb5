import {
  APPOINTMENT_LIMITS,
  APPOINTMENT_SORT_FIELDS,
  APPOINTMENT_STATUSES,
  type Appointment,
  PAYMENT_MODES,
  type Provider,
  serviceCaseId,
} from "@openpractice/core";
import { caseIdBodySchema, caseIdQuerySchema } from "../contracts/case-id.js";
import type { FieldNames } from "../contracts/field-names.js";
import { V2_ID_INPUT, v2FieldsParameter, v2PageParameters } from "../contracts/v2-contract.js";
import {
  dateTime,
  described,
  fieldSelection,
  idText,
  idTextOrNull,
  number,
  oneOfStrings,
  orNull,
  plainText,
  replyObject,
  serviceCaseIdOrNull,
  textOrNull,
  arrayOf,
  anyObject,
} from "../openapi/reply-schemas.js";
import { nullable } from "../validation/json-schema.js";

/** Statuses as v2 writes them: the domain's, in lower case. */
export const V2_APPOINTMENT_STATUSES = APPOINTMENT_STATUSES.map((s) => s.toLowerCase());
export const V2_APPOINTMENT_EXPANSIONS = ["patient", "provider"] as const;
export type V2AppointmentExpansion = (typeof V2_APPOINTMENT_EXPANSIONS)[number];
export const V2_APPOINTMENT_LIMITS = { defaultPerPage: 25, maxPerPage: 100 } as const;

const instant = { type: "string", format: "date-time", description: "ISO 8601 with an offset or Z" } as const;
const text = (max: number) => nullable({ type: "string", maxLength: max });

export const v2AppointmentCreateSchema = {
  $id: "V2AppointmentCreate",
  type: "object",
  additionalProperties: false,
  required: ["patient_id", "provider_id", "clinic_id", "appointment_type_id", "payment_mode"],
  properties: {
    patient_id: V2_ID_INPUT,
    provider_id: { ...V2_ID_INPUT, description: "The provider's v2 id (GET /v2/providers)" },
    clinic_id: V2_ID_INPUT,
    appointment_type_id: { ...V2_ID_INPUT, description: "Its duration sets the end unless end is given" },
    slot_start: {
      ...instant,
      description:
        "A start GET /v2/slots offered; 409 SLOT_UNAVAILABLE when it is no longer bookable. Give this or start.",
    },
    start: {
      ...instant,
      description:
        "A start of your choosing; 409 OUTSIDE_WORKING_HOURS outside working hours or inside a block, unless the token has appointments:override or admin",
    },
    end: { ...instant, description: "With start only; default start plus the appointment type's duration" },
    payment_mode: { type: "string", enum: [...PAYMENT_MODES] },
    service_case_id: nullable({ ...caseIdBodySchema, description: "The case the visit counts against" }),
    telehealth_url: text(APPOINTMENT_LIMITS.maxUrlLength),
    comments: text(APPOINTMENT_LIMITS.maxTextLength),
    notes: text(APPOINTMENT_LIMITS.maxTextLength),
  },
} as const;

export const v2AppointmentCancelSchema = {
  $id: "V2AppointmentCancel",
  type: "object",
  additionalProperties: false,
  required: ["reason_key"],
  properties: {
    reason_key: {
      type: "string",
      minLength: 1,
      maxLength: 64,
      description:
        "An active cancellation reason of the organisation (v1 GET /apis/v1/appointment/cancellation-reasons)",
    },
    comment: text(APPOINTMENT_LIMITS.maxTextLength),
    fee: {
      type: "number",
      minimum: 0,
      maximum: APPOINTMENT_LIMITS.maxCancellationFee,
      description: "Default: the reason's fee",
    },
  },
} as const;

const cancellationSchema = replyObject(
  { reason_key: plainText, reason_label: plainText, comment: textOrNull, fee: number, cancelled_at: dateTime },
  { title: "V2AppointmentCancellation" },
);

const appointmentExample = {
  id: "812",
  patient_id: "41",
  provider_id: "7",
  clinic_id: "3",
  service_case_id: "SERVICE_CASE_12",
  appointment_type_id: "5",
  start: "2027-03-09T14:00:00.000Z",
  end: "2027-03-09T14:30:00.000Z",
  status: "scheduled",
  payment_mode: "INSURANCE_PAY",
  telehealth_url: null,
  comments: null,
  notes: null,
  cancellation: null,
  created_at: "2027-03-01T16:20:00.000Z",
  updated_at: "2027-03-01T16:20:00.000Z",
};

const appointmentProperties = {
  id: idText,
  patient_id: idText,
  provider_id: described(idTextOrNull, "The provider's v2 id"),
  clinic_id: idText,
  service_case_id: serviceCaseIdOrNull,
  appointment_type_id: described(idText, "The appointment type (the first one, for a v1 booking with several)"),
  start: dateTime,
  end: dateTime,
  status: oneOfStrings(V2_APPOINTMENT_STATUSES),
  payment_mode: plainText,
  telehealth_url: textOrNull,
  comments: textOrNull,
  notes: textOrNull,
  cancellation: orNull(cancellationSchema),
  created_at: dateTime,
  updated_at: dateTime,
};

export const v2AppointmentSchema = replyObject(appointmentProperties, {
  title: "V2Appointment",
  examples: [appointmentExample],
});

const BOOKING_WARNINGS = arrayOf(
  replyObject({ code: plainText, message: plainText, details: anyObject }, { title: "V2BookingWarning" }),
  "Visit-limit problems of a clinic that warns instead of refusing",
);

export const v2AppointmentCreatedSchema = replyObject(
  { ...appointmentProperties, warnings: BOOKING_WARNINGS },
  { title: "V2AppointmentBooked", examples: [{ ...appointmentExample, warnings: [] }] },
);

/** Read with `fields` and `expand`: the expansions are objects of their own (see the patient and provider reads). */
export const v2AppointmentReadSchema = fieldSelection(v2AppointmentSchema, "V2AppointmentFields", {
  patient: { $ref: "#/components/schemas/V2Patient" },
  provider: { $ref: "#/components/schemas/Provider" },
});

const fieldsParameter = v2FieldsParameter(Object.keys(appointmentProperties) as (keyof typeof appointmentProperties)[]);
const expandParameter = {
  type: "string",
  pattern: `^(${V2_APPOINTMENT_EXPANSIONS.join("|")})(,(${V2_APPOINTMENT_EXPANSIONS.join("|")}))*$`,
  description: "patient and/or provider: adds the object (needs patients:read or providers:read as well, or read)",
} as const;

export const v2AppointmentReadQuerySchema = {
  type: "object",
  additionalProperties: false,
  properties: { fields: fieldsParameter, expand: expandParameter },
} as const;

const idQuery = { type: "integer", minimum: 1 } as const;
export const v2AppointmentListQuerySchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    ...v2PageParameters(V2_APPOINTMENT_LIMITS.defaultPerPage, V2_APPOINTMENT_LIMITS.maxPerPage),
    provider_id: { ...idQuery, description: "404 when the organisation has no such provider" },
    clinic_id: { ...idQuery, description: "404 when the organisation has no such clinic" },
    patient_id: idQuery,
    service_case_id: caseIdQuerySchema,
    status: {
      type: "string",
      pattern: `^(${V2_APPOINTMENT_STATUSES.join("|")})(,(${V2_APPOINTMENT_STATUSES.join("|")}))*$`,
      description: "One or more statuses, comma-separated",
    },
    from: { ...instant, description: "Appointments starting at or after this" },
    to: { ...instant, description: "Appointments starting before this" },
    sort: { type: "string", enum: [...APPOINTMENT_SORT_FIELDS], default: "start" },
    order: { type: "string", enum: ["asc", "desc"], default: "asc" },
    fields: fieldsParameter,
    expand: expandParameter,
  },
} as const;

/** Domain field names as v2 writes them, for errors. */
export const V2_APPOINTMENT_FIELDS: FieldNames = Object.freeze({
  patientId: "patient_id",
  doctorId: "provider_id",
  clinicId: "clinic_id",
  categoryIds: "appointment_type_id",
  startsAt: "start",
  endsAt: "end",
  paymentMode: "payment_mode",
  serviceCaseId: "service_case_id",
  teleHealthUrl: "telehealth_url",
  comments: "comments",
  appointmentNotes: "notes",
  reasonKey: "reason_key",
  reasonLabel: "reason_key",
  comment: "comment",
  fee: "fee",
});

/** An appointment as v2 shows it; `providers` maps doctor (user) ids to providers. */
export function v2AppointmentView(a: Appointment, providers: ReadonlyMap<number, Provider>): Record<string, unknown> {
  const c = a.cancellation;
  return {
    id: String(a.id),
    patient_id: String(a.patientId),
    provider_id: providers.has(a.doctorId) ? String(providers.get(a.doctorId)?.id) : null,
    clinic_id: String(a.clinicId),
    service_case_id: serviceCaseId(a.serviceCaseId),
    appointment_type_id: String(a.categoryIds[0]),
    start: a.startsAt.toISOString(),
    end: a.endsAt.toISOString(),
    status: a.status.toLowerCase(),
    payment_mode: a.paymentMode,
    telehealth_url: a.teleHealthUrl,
    comments: a.comments,
    notes: a.appointmentNotes,
    cancellation: c
      ? {
          reason_key: c.reasonKey,
          reason_label: c.reasonLabel,
          comment: c.comment,
          fee: c.fee,
          cancelled_at: c.cancelledAt.toISOString(),
        }
      : null,
    created_at: a.createdAt.toISOString(),
    updated_at: a.updatedAt.toISOString(),
  };
}
