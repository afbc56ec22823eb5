/** The coverage record: a patient's insurance card, which v1 shows as a card and v2 as a coverage; cases keep copies. */

/** A payer as an insurance card names it. */
export interface InsurancePayer {
  payerRegId: number | null;
  name: string;
  payerId: string | null;
}

export const SUBSCRIBER_RELATIONSHIPS = ["self", "spouse", "child", "other"] as const;
export type SubscriberRelationship = (typeof SUBSCRIBER_RELATIONSHIPS)[number];

/** Who holds the policy: the patient (self), or another person named here. */
export interface Subscriber {
  relationship: SubscriberRelationship;
  /** null for self (the patient's own name and date of birth apply). */
  firstName: string | null;
  lastName: string | null;
  dateOfBirth: string | null;
}

export const COVERAGE_PRIORITIES = ["primary", "secondary", "tertiary"] as const;
export type CoveragePriority = (typeof COVERAGE_PRIORITIES)[number];

/**
 * One of a patient's insurance cards: v1's insurance card and v2's coverage are two views of this record (v1 shows
 * the payer, number and plan dates; v2 every field).
 */
export interface InsuranceCard {
  id: number;
  organisationId: number;
  patientId: number;
  payer: InsurancePayer;
  /** The member id (v1: insurance_number). */
  insuranceNumber: string;
  planStartDate: string | null;
  planEndDate: string | null;
  groupNumber: string | null;
  planName: string | null;
  subscriber: Subscriber;
  /** The patient's order of the coverage; null for a v1 card (a v1 case gives each copy its rank). */
  priority: CoveragePriority | null;
  active: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** The subscriber of a card the patient holds. */
export const SELF_SUBSCRIBER: Subscriber = Object.freeze({
  relationship: "self",
  firstName: null,
  lastName: null,
  dateOfBirth: null,
});
