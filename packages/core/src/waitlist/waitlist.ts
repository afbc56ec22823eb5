import type { PaymentMode } from "../cases/payment-mode.js";
import type { Weekday } from "../scheduling/shift.js";

/** A request's life: waiting for a slot, holding an offer, booked, past its latest date, or withdrawn. */
export const WAITLIST_STATUSES = ["waiting", "offered", "booked", "expired", "cancelled"] as const;
export type WaitlistStatus = (typeof WAITLIST_STATUSES)[number];

/** Who is offered a freed slot first: priority, then the oldest request. */
export const WAITLIST_PRIORITIES = ["high", "normal", "low"] as const;
export type WaitlistPriority = (typeof WAITLIST_PRIORITIES)[number];

/** A stretch of the day (HH:MM, the clinic's wall clock) the patient can come in. */
export interface TimeWindow {
  start: string;
  end: string;
}

export interface WaitlistRequest {
  id: number;
  organisationId: number;
  patientId: number;
  serviceCaseId: number | null;
  /** Acceptable providers (v2 ids); empty: any provider. */
  providerIds: number[];
  /** Acceptable clinics; empty: any clinic. */
  clinicIds: number[];
  appointmentTypeId: number;
  /** Days of the week the patient can come; empty: any. */
  preferredDays: Weekday[];
  /** Times of day the patient can come; empty: any. */
  timeWindows: TimeWindow[];
  /** YYYY-MM-DD in the clinic's calendar, inclusive; null: no bound. */
  earliestDate: string | null;
  latestDate: string | null;
  priority: WaitlistPriority;
  /** How the booked visit is paid (booking requires it, spec 7.5). */
  paymentMode: PaymentMode;
  notes: string | null;
  status: WaitlistStatus;
  /** The appointment an accepted offer booked. */
  appointmentId: number | null;
  createdAt: Date;
  updatedAt: Date;
  /** Starts at 1; every stored change adds 1 (optimistic concurrency). */
  version: number;
}

export type WaitlistRequestDraft = Pick<WaitlistRequest, "patientId" | "appointmentTypeId" | "paymentMode"> &
  Partial<
    Pick<
      WaitlistRequest,
      | "serviceCaseId"
      | "providerIds"
      | "clinicIds"
      | "preferredDays"
      | "timeWindows"
      | "earliestDate"
      | "latestDate"
      | "priority"
      | "notes"
    >
  >;

/** A PATCH: omitted fields keep their values (the patient never changes). */
export type WaitlistRequestChanges = Partial<Omit<WaitlistRequestDraft, "patientId">>;

export const OFFER_STATUSES = ["pending", "accepted", "expired", "withdrawn"] as const;
export type OfferStatus = (typeof OFFER_STATUSES)[number];

/** A freed slot held for one request until it is accepted or expires. */
export interface WaitlistOffer {
  id: number;
  organisationId: number;
  requestId: number;
  /** The provider's v2 id. */
  providerId: number;
  clinicId: number;
  startsAt: Date;
  endsAt: Date;
  status: OfferStatus;
  expiresAt: Date;
  createdAt: Date;
  /** When it was accepted, expired or withdrawn. */
  decidedAt: Date | null;
  appointmentId: number | null;
}

export const WAITLIST_LIMITS = {
  defaultPerPage: 25,
  maxPerPage: 100,
  maxProviders: 20,
  maxClinics: 20,
  maxWindows: 10,
  maxNotes: 2000,
  defaultOfferMinutes: 30,
} as const;
