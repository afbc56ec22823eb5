import {
  APPOINTMENT_LIMITS,
  APPOINTMENT_LIST_LIMITS,
  APPOINTMENT_STATUSES,
  PAYMENT_MODES,
  serviceCaseId,
  requireServiceCaseId,
  type Appointment,
  type AppointmentOutcome,
  type AppointmentCategory,
  type AppointmentDraft,
  type AppointmentHistoryEntry,
  type AppointmentListQuery,
  type CancellationReason,
  type CancellationRequest,
} from "@openpractice/core";
import { caseIdBodySchema } from "../contracts/case-id.js";
import type { FieldNames } from "../contracts/field-names.js";
import { pathIdKind } from "../contracts/path-id.js";
import type { Static } from "../define-route.js";
import { zonelessUtc } from "../patients/v1-patient-contract.js";
import {
  anyObject,
  arrayOf,
  described,
  idOrNull,
  integer,
  number,
  numberOrNull,
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

const id = { type: "integer", minimum: 1 } as const;
/** Unix seconds, as v1 sends appointment times. */
const unixSeconds = {
  type: "integer",
  minimum: 0,
  maximum: 32503680000,
  description: "Unix time in seconds",
} as const;
const text = (max: number) => nullable({ type: "string", maxLength: max });

export const v1AppointmentCreateSchema = {
  $id: "V1AppointmentCreate",
  type: "object",
  additionalProperties: false,
  required: [
    "doctor_id",
    "patient_id",
    "clinic_id",
    "appointment_category",
    "timestamp",
    "end_timestamp",
    "payment_mode",
  ],
  properties: {
    doctor_id: { ...id, description: "The provider's user id" },
    patient_id: id,
    clinic_id: id,
    appointment_category: {
      type: "array",
      minItems: 1,
      maxItems: APPOINTMENT_LIMITS.maxCategories,
      items: id,
      description: "Category ids (GET /apis/v1/appointment/categories)",
    },
    timestamp: unixSeconds,
    end_timestamp: unixSeconds,
    payment_mode: { type: "string", enum: [...PAYMENT_MODES] },
    service_case_id: nullable(caseIdBodySchema),
    tele_health_url: text(APPOINTMENT_LIMITS.maxUrlLength),
    comments: text(APPOINTMENT_LIMITS.maxTextLength),
    appointment_notes: text(APPOINTMENT_LIMITS.maxTextLength),
  },
} as const;

export const v1AppointmentCancelSchema = {
  $id: "V1AppointmentCancel",
  type: "object",
  additionalProperties: false,
  required: ["cancellation_reason_key", "cancellation_reason_label"],
  properties: {
    cancellation_reason_key: { type: "string", minLength: 1, maxLength: 64 },
    cancellation_reason_label: { type: "string", minLength: 1, maxLength: 200 },
    cancellation_reason_comment: text(APPOINTMENT_LIMITS.maxTextLength),
    cancellation_fee: {
      type: "number",
      minimum: 0,
      maximum: APPOINTMENT_LIMITS.maxCancellationFee,
      description: "Defaults to the reason's fee; 0 when none",
    },
  },
} as const;

export const v1AppointmentRescheduleSchema = {
  $id: "V1AppointmentReschedule",
  type: "object",
  additionalProperties: false,
  required: ["timestamp", "end_timestamp"],
  properties: { timestamp: unixSeconds, end_timestamp: unixSeconds },
} as const;

/** Bodies of check-in, start, check-out and no-show: empty, or an empty object. */
export const v1AppointmentActionSchema = {
  $id: "V1AppointmentAction",
  type: "object",
  additionalProperties: false,
  properties: {},
} as const;

export const v1ClinicSettingsSchema = {
  $id: "V1ClinicSettings",
  type: "object",
  additionalProperties: false,
  minProperties: 1,
  properties: {
    allow_double_booking: {
      type: "boolean",
      description: "Whether a doctor may hold overlapping appointments at this clinic",
    },
    visit_limit_warning_only: {
      type: "boolean",
      description:
        "Whether a booking over a tracked case's visit limit (or outside its authorization) is accepted with a warning instead of refused",
    },
  },
} as const;

export const v1AppointmentListQuerySchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    page: { type: "integer", minimum: 1, default: 1, description: "1-based page number" },
    size: {
      type: "integer",
      minimum: 1,
      maximum: APPOINTMENT_LIST_LIMITS.maxSize,
      default: APPOINTMENT_LIST_LIMITS.defaultSize,
    },
    from: { ...unixSeconds, description: "Appointments starting at or after this Unix time (seconds)" },
    to: { ...unixSeconds, description: "Appointments starting before this Unix time (seconds)" },
    doctor_id: id,
    clinic_id: id,
    patient_id: id,
    category_id: id,
    status: {
      type: "string",
      maxLength: 200,
      description: `Comma-separated statuses: ${APPOINTMENT_STATUSES.join(", ")}`,
    },
  },
} as const;

/** Domain field → v1 wire field, for error messages. */
export const V1_APPOINTMENT_FIELDS: FieldNames = Object.freeze({
  patientId: "patient_id",
  doctorId: "doctor_id",
  clinicId: "clinic_id",
  categoryIds: "appointment_category",
  startsAt: "timestamp",
  endsAt: "end_timestamp",
  paymentMode: "payment_mode",
  serviceCaseId: "service_case_id",
  teleHealthUrl: "tele_health_url",
  appointmentNotes: "appointment_notes",
  reasonKey: "cancellation_reason_key",
  reasonLabel: "cancellation_reason_label",
  comment: "cancellation_reason_comment",
  fee: "cancellation_fee",
  allowDoubleBooking: "allow_double_booking",
  visitLimitWarningOnly: "visit_limit_warning_only",
});

const fromUnix = (s: number) => new Date(s * 1000);
const toUnix = (d: Date) => Math.floor(d.getTime() / 1000);

const caseId = (raw: unknown): number | null =>
  raw === undefined || raw === null ? null : requireServiceCaseId(raw, "serviceCaseId");

export type V1AppointmentCreate = Static<typeof v1AppointmentCreateSchema>;
export type V1AppointmentCancel = Static<typeof v1AppointmentCancelSchema>;
export type V1AppointmentReschedule = Static<typeof v1AppointmentRescheduleSchema>;
export type V1AppointmentListQuery = Static<typeof v1AppointmentListQuerySchema>;

export function v1DraftFromBody(b: V1AppointmentCreate): AppointmentDraft {
  return {
    patientId: b.patient_id,
    doctorId: b.doctor_id,
    clinicId: b.clinic_id,
    categoryIds: b.appointment_category,
    startsAt: fromUnix(b.timestamp),
    endsAt: fromUnix(b.end_timestamp),
    paymentMode: b.payment_mode,
    serviceCaseId: caseId(b.service_case_id),
    teleHealthUrl: b.tele_health_url ?? null,
    comments: b.comments ?? null,
    appointmentNotes: b.appointment_notes ?? null,
  };
}

export function v1CancellationFromBody(b: V1AppointmentCancel): CancellationRequest {
  return {
    reasonKey: b.cancellation_reason_key,
    reasonLabel: b.cancellation_reason_label,
    comment: b.cancellation_reason_comment ?? null,
    ...(b.cancellation_fee === undefined ? {} : { fee: b.cancellation_fee }),
  };
}

export const v1RescheduleFromBody = (b: V1AppointmentReschedule) => ({
  startsAt: fromUnix(b.timestamp),
  endsAt: fromUnix(b.end_timestamp),
});

export function v1ListQuery(q: V1AppointmentListQuery): AppointmentListQuery {
  return {
    page: q.page,
    size: q.size,
    from: q.from === undefined ? undefined : fromUnix(q.from),
    to: q.to === undefined ? undefined : fromUnix(q.to),
    doctorId: q.doctor_id,
    clinicId: q.clinic_id,
    patientId: q.patient_id,
    categoryId: q.category_id,
    statuses: typeof q.status === "string" && q.status !== "" ? q.status.split(",") : undefined,
  };
}

/** An appointment path id: a positive integer; anything else is an appointment that does not exist. */
export const APPOINTMENT_ID = pathIdKind("APPOINTMENT_NOT_FOUND", "appointment_id");

export function v1AppointmentView(a: Appointment) {
  const c = a.cancellation;
  return {
    appointment_id: a.id,
    organisation_id: a.organisationId,
    patient_id: a.patientId,
    doctor_id: a.doctorId,
    clinic_id: a.clinicId,
    appointment_category: a.categoryIds,
    timestamp: toUnix(a.startsAt),
    end_timestamp: toUnix(a.endsAt),
    start_time: zonelessUtc(a.startsAt),
    end_time: zonelessUtc(a.endsAt),
    payment_mode: a.paymentMode,
    service_case_id: serviceCaseId(a.serviceCaseId),
    tele_health_url: a.teleHealthUrl,
    comments: a.comments,
    appointment_notes: a.appointmentNotes,
    status: a.status,
    cancellation_reason_key: c?.reasonKey ?? null,
    cancellation_reason_label: c?.reasonLabel ?? null,
    cancellation_reason_comment: c?.comment ?? null,
    cancellation_fee: c ? c.fee : null,
    cancelled_at: c ? zonelessUtc(c.cancelledAt) : null,
    created_at: zonelessUtc(a.createdAt),
    updated_at: zonelessUtc(a.updatedAt),
  };
}

/**
 * A booking or action reply: the appointment plus `warnings`, the visit-limit
 * problems a clinic in warning mode accepted (empty otherwise).
 */
export function v1OutcomeView(o: AppointmentOutcome) {
  return {
    ...v1AppointmentView(o.appointment),
    warnings: o.warnings.map((w) => ({ code: w.code, message: w.message, details: w.details })),
  };
}

export const v1HistoryView = (e: AppointmentHistoryEntry) => ({
  action: e.action,
  from_status: e.fromStatus,
  to_status: e.toStatus,
  timestamp: toUnix(e.startsAt),
  end_timestamp: toUnix(e.endsAt),
  by_user_id: e.byUserId,
  at: zonelessUtc(e.at),
});

export const v1CategoryView = (c: AppointmentCategory) => ({
  id: c.id,
  name: c.name,
  type: c.type,
  duration_minutes: c.durationMinutes,
});

export const v1CancellationReasonView = (r: CancellationReason) => ({
  id: r.id,
  reason_key: r.reasonKey,
  reason_label: r.reasonLabel,
  cancellation_fee: r.cancellationFee,
  status: r.status,
});

const APPOINTMENT_PROPERTIES = {
  appointment_id: id,
  organisation_id: id,
  patient_id: id,
  doctor_id: described(id, "The provider's user id"),
  clinic_id: id,
  appointment_category: arrayOf(id, "Category ids"),
  timestamp: described(integer, "Start, Unix seconds"),
  end_timestamp: described(integer, "End, Unix seconds"),
  start_time: described(zonelessTime, "Start, zonelessTime ISO 8601 in UTC"),
  end_time: described(zonelessTime, "End, zonelessTime ISO 8601 in UTC"),
  payment_mode: oneOfStrings(PAYMENT_MODES),
  service_case_id: described(serviceCaseIdOrNull, "The case the visit counts against, SERVICE_CASE_<id>"),
  tele_health_url: textOrNull,
  comments: textOrNull,
  appointment_notes: textOrNull,
  status: oneOfStrings(APPOINTMENT_STATUSES),
  cancellation_reason_key: textOrNull,
  cancellation_reason_label: textOrNull,
  cancellation_reason_comment: textOrNull,
  cancellation_fee: described(numberOrNull, "Set once cancelled"),
  cancelled_at: zonelessTimeOrNull,
  created_at: zonelessTime,
  updated_at: zonelessTime,
} as const;

const APPOINTMENT_EXAMPLE = {
  appointment_id: 5120,
  organisation_id: 1,
  patient_id: 1042,
  doctor_id: 9001,
  clinic_id: 3,
  appointment_category: [2],
  timestamp: 1742050800,
  end_timestamp: 1742053500,
  start_time: "2025-03-15T15:00:00",
  end_time: "2025-03-15T15:45:00",
  payment_mode: "INSURANCE_PAY",
  service_case_id: "SERVICE_CASE_77",
  tele_health_url: null,
  comments: "Prefers afternoon slots",
  appointment_notes: null,
  status: "SCHEDULED",
  cancellation_reason_key: null,
  cancellation_reason_label: null,
  cancellation_reason_comment: null,
  cancellation_fee: null,
  cancelled_at: null,
  created_at: "2025-03-10T09:12:44",
  updated_at: "2025-03-10T09:12:44",
};

/** An appointment as v1 reads and lists it (v1AppointmentView). */
export const v1AppointmentSchema: JsonSchema = replyObject(APPOINTMENT_PROPERTIES, {
  title: "V1Appointment",
  examples: [APPOINTMENT_EXAMPLE],
});

/** A booking or action reply (v1OutcomeView): the appointment and the visit-limit warnings accepted. */
export const v1AppointmentOutcomeSchema: JsonSchema = replyObject(
  {
    ...APPOINTMENT_PROPERTIES,
    warnings: arrayOf(
      replyObject(
        {
          code: oneOfStrings(["VISIT_LIMIT_REACHED", "NO_VALID_AUTHORIZATION"]),
          message: plainText,
          details: anyObject,
        },
        { title: "V1AppointmentWarning" },
      ),
      "Visit-limit problems accepted because the clinic warns instead of refusing (visit_limit_warning_only); empty otherwise",
    ),
  },
  {
    title: "V1AppointmentOutcome",
    description: "The appointment after a booking or an action, with the warnings the booking was accepted with",
    examples: [{ ...APPOINTMENT_EXAMPLE, warnings: [] }],
  },
);

/** One entry of an appointment's history (v1HistoryView). */
export const v1AppointmentHistorySchema: JsonSchema = replyObject(
  {
    action: described(plainText, "BOOK, CHECK_IN, START, CHECK_OUT, NO_SHOW, CANCEL or RESCHEDULE"),
    from_status: orNull(oneOfStrings(APPOINTMENT_STATUSES)),
    to_status: oneOfStrings(APPOINTMENT_STATUSES),
    timestamp: described(integer, "Start after the change, Unix seconds"),
    end_timestamp: described(integer, "End after the change, Unix seconds"),
    by_user_id: idOrNull,
    at: zonelessTime,
  },
  { title: "V1AppointmentHistoryEntry" },
);

/** An appointment category (v1CategoryView). */
export const v1CategorySchema: JsonSchema = replyObject(
  { id, name: plainText, type: plainText, duration_minutes: integer },
  { title: "V1AppointmentCategory" },
);

/** A cancellation reason (v1CancellationReasonView). */
export const v1CancellationReasonSchema: JsonSchema = replyObject(
  {
    id,
    reason_key: plainText,
    reason_label: plainText,
    cancellation_fee: number,
    status: oneOfStrings(["ACTIVE", "INACTIVE"]),
  },
  { title: "V1CancellationReason" },
);
