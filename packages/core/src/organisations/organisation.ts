import type { BillingUnitRule } from "./billing-unit-rule.js";

/** How an organisation documents and bills visits (GET/POST /apis/v1/organisation/settings). */
export interface DocumentationSettings {
  /** How units of timed codes are checked against minutes (default cms_8_minute). */
  billingUnitRule: BillingUnitRule;
  /** Notes of providers with a supervising physician need that physician's co-signature before completion (default false). */
  requireCosign: boolean;
  /** Completed notes go to billing through the BillingGateway at once (default false). */
  autoSubmitBilling: boolean;
  /**
   * A note needs its Plan section filled to be signed or completed (default false: the spec's
   * Subjective, Objective and Assessment suffice, so a client that knows only those can sign).
   */
  requirePlanSection: boolean;
}

/** Commercial plans; they set the v2 request budget (spec 8). */
export const PLANS = ["free", "professional", "enterprise"] as const;
export type Plan = (typeof PLANS)[number];

/**
 * An organisation (a practice group). Its id is external: it is the
 * `organisation_id` claim of the identity provider's tokens, so the store never
 * invents one.
 */
export interface Organisation {
  id: number;
  name: string;
  plan: Plan;
  /** Spec 4.8's webhook profile switch: an organisation with is_active false gets no webhook deliveries. */
  isActive: boolean;
  /** IANA time zone of the practice; clinics created without one take it (default UTC). */
  timeZone: string;
  /**
   * Set by the platform operator (`openpractice org deactivate`, PATCH /v2/organisations/{id}): every token of a
   * deactivated organisation is refused and nothing is delivered. Unlike isActive the organisation cannot undo it.
   */
  deactivatedAt: Date | null;
  /** Reads of patient records are written to the audit trail too (HIPAA access log); default false. */
  auditReads: boolean;
  documentation: DocumentationSettings;
  createdAt: Date;
  updatedAt: Date;
}

export interface Clinic {
  id: number;
  organisationId: number;
  name: string;
  /** IANA time zone the clinic works in (appointments are stored in UTC). */
  timeZone: string;
  /** Whether a doctor may hold overlapping appointments at this clinic (default false: refused). */
  allowDoubleBooking: boolean;
  /** Whether a visit over a tracked case's limit (or outside its authorization) is booked with a warning instead of refused (default false). */
  visitLimitWarningOnly: boolean;
  address: ClinicAddress;
  phone: string | null;
  /** The CMS place-of-service code claims carry for visits here: two digits, "11" (office) by default. */
  placeOfService: string;
  /** The clinic's (type 2) NPI, check digit verified; several clinics may share the group's NPI. */
  npi: string | null;
  /** The employer identification number: 9 digits. */
  taxId: string | null;
  /** An inactive clinic stays readable (history points at it) but is left out of the default lists. */
  active: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export interface ClinicAddress {
  line1: string | null;
  line2: string | null;
  city: string | null;
  state: string | null;
  postalCode: string | null;
  country: string | null;
}

export const EMPTY_CLINIC_ADDRESS: ClinicAddress = Object.freeze({
  line1: null,
  line2: null,
  city: null,
  state: null,
  postalCode: null,
  country: null,
});

/** A treating provider (doctor/therapist). `userId` is the identity provider's user id (the `user_id` claim). */
export interface Provider {
  id: number;
  organisationId: number;
  userId: number;
  firstName: string;
  lastName: string;
  npi: string | null;
  /** User id of the supervising physician, used as a note's supervising_physician. */
  supervisingUserId: number | null;
  clinicIds: number[];
  /** Professional credentials, e.g. DPT, PTA, DC. */
  credentials: string[];
  licenceNumber: string | null;
  /** The state that issued the licence (2 letters). */
  licenceState: string | null;
  specialities: string[];
  /**
   * Their notes need the supervising physician's co-signature whatever the organisation's require_cosign
   * setting says (a PTA's notes, say). Needs a supervising physician.
   */
  requiresCosign: boolean;
  /** An inactive provider cannot be booked; their history stays. */
  active: boolean;
  createdAt: Date;
  updatedAt: Date;
}
