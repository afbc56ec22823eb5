import {
  PAYMENT_MODES,
  serviceCaseId,
  WAITLIST_LIMITS,
  WAITLIST_PRIORITIES,
  WAITLIST_STATUSES,
  type WaitlistOffer,
  type WaitlistRequestChanges,
  type WaitlistRequestView,
  WEEKDAYS,
  type Weekday,
} from "@openpractice/core";
import { caseIdBodySchema } from "../contracts/case-id.js";
import type { FieldNames } from "../contracts/field-names.js";
import { V2_ID_INPUT, v2PageParameters } from "../contracts/v2-contract.js";
import type { Static } from "../define-route.js";
import {
  arrayOf,
  dateOrNull,
  dateTime,
  dateTimeOrNull,
  described,
  idText,
  idTextOrNull,
  oneOfStrings,
  orNull,
  plainText,
  replyObject,
  serviceCaseIdOrNull,
  textOrNull,
} from "../openapi/reply-schemas.js";
import { nullable } from "../validation/json-schema.js";

const HHMM = "^([01][0-9]|2[0-3]):[0-5][0-9]$";
const date = { type: "string", format: "date", description: "YYYY-MM-DD, the clinic's calendar" } as const;

const editable = {
  service_case_id: nullable({ ...caseIdBodySchema, description: "The case the visit will count against" }),
  provider_ids: {
    type: "array",
    maxItems: WAITLIST_LIMITS.maxProviders,
    uniqueItems: true,
    items: V2_ID_INPUT,
    description: "Acceptable providers; empty or left out: any",
  },
  clinic_ids: {
    type: "array",
    maxItems: WAITLIST_LIMITS.maxClinics,
    uniqueItems: true,
    items: V2_ID_INPUT,
    description: "Acceptable clinics; empty or left out: any",
  },
  appointment_type_id: { ...V2_ID_INPUT, description: "Its duration is the length of the slot offered" },
  preferred_days: {
    type: "array",
    uniqueItems: true,
    items: { type: "string", enum: [...WEEKDAYS] },
    description: "Days of the week the patient can come; empty: any",
  },
  time_windows: {
    type: "array",
    maxItems: WAITLIST_LIMITS.maxWindows,
    items: {
      type: "object",
      additionalProperties: false,
      required: ["start", "end"],
      properties: { start: { type: "string", pattern: HHMM }, end: { type: "string", pattern: HHMM } },
    },
    description: "Times of day (the clinic's wall clock) the whole appointment must fit in; empty: any",
  },
  earliest_date: nullable(date),
  latest_date: nullable({ ...date, description: "After it the request expires" }),
  priority: { type: "string", enum: [...WAITLIST_PRIORITIES], description: "high first, then the oldest request" },
  payment_mode: { type: "string", enum: [...PAYMENT_MODES] },
  notes: nullable({ type: "string", maxLength: WAITLIST_LIMITS.maxNotes }),
} as const;

export const v2WaitlistCreateSchema = {
  $id: "V2WaitlistRequestCreate",
  type: "object",
  additionalProperties: false,
  required: ["patient_id", "appointment_type_id", "payment_mode"],
  properties: { patient_id: V2_ID_INPUT, ...editable },
} as const;

export const v2WaitlistUpdateSchema = {
  $id: "V2WaitlistRequestUpdate",
  type: "object",
  additionalProperties: false,
  minProperties: 1,
  properties: editable,
} as const;

export const v2WaitlistListQuerySchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    ...v2PageParameters(WAITLIST_LIMITS.defaultPerPage, WAITLIST_LIMITS.maxPerPage),
    status: {
      type: "string",
      pattern: `^(${WAITLIST_STATUSES.join("|")})(,(${WAITLIST_STATUSES.join("|")}))*$`,
      description: "One or more statuses, comma-separated (default: every status)",
    },
    patient_id: { type: "integer", minimum: 1 },
  },
} as const;

const offerSchema = replyObject(
  {
    id: idText,
    provider_id: idText,
    clinic_id: idText,
    start: dateTime,
    end: dateTime,
    status: oneOfStrings(["pending", "accepted", "expired", "withdrawn"]),
    expires_at: dateTime,
    created_at: dateTime,
    decided_at: dateTimeOrNull,
    appointment_id: idTextOrNull,
  },
  { title: "WaitlistOffer" },
);

const example = {
  id: "14",
  patient_id: "41",
  service_case_id: null,
  provider_ids: ["7"],
  clinic_ids: [],
  appointment_type_id: "5",
  preferred_days: ["MO", "WE"],
  time_windows: [{ start: "08:00", end: "12:00" }],
  earliest_date: null,
  latest_date: "2027-04-30",
  priority: "normal",
  payment_mode: "INSURANCE_PAY",
  notes: null,
  status: "offered",
  appointment_id: null,
  offer: {
    id: "3",
    provider_id: "7",
    clinic_id: "3",
    start: "2027-03-08T15:00:00.000Z",
    end: "2027-03-08T15:30:00.000Z",
    status: "pending",
    expires_at: "2027-03-05T16:30:00.000Z",
    created_at: "2027-03-05T16:00:00.000Z",
    decided_at: null,
    appointment_id: null,
  },
  offers_made: 1,
  created_at: "2027-02-20T10:00:00.000Z",
  updated_at: "2027-03-05T16:00:00.000Z",
};

export const v2WaitlistSchema = replyObject(
  {
    id: idText,
    patient_id: idText,
    service_case_id: serviceCaseIdOrNull,
    provider_ids: arrayOf(idText),
    clinic_ids: arrayOf(idText),
    appointment_type_id: idText,
    preferred_days: arrayOf(oneOfStrings(WEEKDAYS)),
    time_windows: arrayOf(replyObject({ start: plainText, end: plainText }, { title: "WaitlistTimeWindow" })),
    earliest_date: dateOrNull,
    latest_date: dateOrNull,
    priority: oneOfStrings(WAITLIST_PRIORITIES),
    payment_mode: plainText,
    notes: textOrNull,
    status: oneOfStrings(WAITLIST_STATUSES),
    appointment_id: described(idTextOrNull, "The appointment an accepted offer booked"),
    offer: described(orNull(offerSchema), "The latest offer (pending while the status is offered)"),
    offers_made: described({ type: "integer" }, "How many offers this request had"),
    created_at: dateTime,
    updated_at: dateTime,
  },
  { title: "WaitlistRequest", examples: [example] },
);

export const V2_WAITLIST_FIELDS: FieldNames = Object.freeze({
  patientId: "patient_id",
  serviceCaseId: "service_case_id",
  providerIds: "provider_ids",
  clinicIds: "clinic_ids",
  appointmentTypeId: "appointment_type_id",
  preferredDays: "preferred_days",
  timeWindows: "time_windows",
  earliestDate: "earliest_date",
  latestDate: "latest_date",
  priority: "priority",
  paymentMode: "payment_mode",
  notes: "notes",
  doctorId: "provider_id",
  clinicId: "clinic_id",
  categoryIds: "appointment_type_id",
  startsAt: "start",
  endsAt: "end",
});

const offerView = (o: WaitlistOffer) => ({
  id: String(o.id),
  provider_id: String(o.providerId),
  clinic_id: String(o.clinicId),
  start: o.startsAt.toISOString(),
  end: o.endsAt.toISOString(),
  status: o.status,
  expires_at: o.expiresAt.toISOString(),
  created_at: o.createdAt.toISOString(),
  decided_at: o.decidedAt ? o.decidedAt.toISOString() : null,
  appointment_id: o.appointmentId === null ? null : String(o.appointmentId),
});

export function v2WaitlistView({ request: r, offers }: WaitlistRequestView) {
  return {
    id: String(r.id),
    patient_id: String(r.patientId),
    service_case_id: serviceCaseId(r.serviceCaseId),
    provider_ids: r.providerIds.map(String),
    clinic_ids: r.clinicIds.map(String),
    appointment_type_id: String(r.appointmentTypeId),
    preferred_days: r.preferredDays,
    time_windows: r.timeWindows,
    earliest_date: r.earliestDate,
    latest_date: r.latestDate,
    priority: r.priority,
    payment_mode: r.paymentMode,
    notes: r.notes,
    status: r.status,
    appointment_id: r.appointmentId === null ? null : String(r.appointmentId),
    offer: offers[0] ? offerView(offers[0]) : null,
    offers_made: offers.length,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}

type Editable = Partial<Static<typeof v2WaitlistUpdateSchema>>;
const caseId = (raw: Editable["service_case_id"], parse: (v: unknown) => number) =>
  raw === undefined ? undefined : raw === null ? null : parse(raw);

/** The body's fields in domain terms; omitted ones stay undefined (a PATCH keeps them). */
export function waitlistChangesFromBody(b: Editable, parseCaseId: (v: unknown) => number): WaitlistRequestChanges {
  const out: Record<keyof WaitlistRequestChanges, unknown> = {
    serviceCaseId: caseId(b.service_case_id, parseCaseId),
    providerIds: b.provider_ids?.map(Number),
    clinicIds: b.clinic_ids?.map(Number),
    appointmentTypeId: b.appointment_type_id === undefined ? undefined : Number(b.appointment_type_id),
    preferredDays: b.preferred_days as Weekday[] | undefined,
    timeWindows: b.time_windows?.map((w) => ({ start: w.start, end: w.end })),
    earliestDate: b.earliest_date,
    latestDate: b.latest_date,
    priority: b.priority,
    paymentMode: b.payment_mode,
    notes: b.notes,
  };
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined)) as WaitlistRequestChanges;
}
