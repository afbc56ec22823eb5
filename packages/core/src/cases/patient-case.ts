import type { Patch } from "../kernel/patch.js";
import type { PaymentMode } from "../appointments/appointment.js";
import { DomainError } from "../kernel/domain-error.js";
import { MAX_STORED_ID } from "../kernel/stored-id.js";

export const TREATMENT_STATUSES = ["ACTIVE", "DISCHARGED"] as const;
export type TreatmentStatus = (typeof TREATMENT_STATUSES)[number];

export const INSURANCE_CARD_TYPES = ["PRIMARY", "SECONDARY", "TERTIARY"] as const;
export type InsuranceCardType = (typeof INSURANCE_CARD_TYPES)[number];

/** Spec 3.4's values; docs/cases-api.md says when each is reported. */
export type AuthRequiredStatus = "AUTH_REQUIRED" | "AUTH_NOT_REQUIRED" | "AUTH_EXPIRED" | "NA";

/** An ICD-10 code on a case or authorization (spec 2.4). */
export interface IcdCode {
  id: number;
  code: string;
  description: string | null;
  revision: "ICD10";
}

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

/** A card as copied onto a case (spec 9: v1 cases hold copies), with its rank on the case. */
export interface CaseInsuranceCard
  extends Pick<InsuranceCard, "id" | "payer" | "insuranceNumber" | "planStartDate" | "planEndDate"> {
  insuranceCardType: InsuranceCardType;
}

/** Which referring physicians a case names (ids into the registry). */
export interface CaseReferrals {
  primary: number | null;
  secondary: number | null;
  tertiary: number | null;
}

/** A course of therapy (spec 2.4): what visits, authorizations and billing hang on. */
export interface PatientCase {
  id: number;
  organisationId: number;
  patientId: number;
  clinicId: number | null;
  caseTitle: string;
  specialization: string;
  directAccess: boolean;
  referrals: CaseReferrals;
  icdCodes: IcdCode[];
  treatingIcdCodes: IcdCode[];
  insuranceCards: CaseInsuranceCard[];
  numberOfPastVisits: number;
  treatmentStatus: TreatmentStatus;
  treatmentStartDate: string | null;
  dateOfInjury: string | null;
  dateOfSurgery: string | null;
  paymentMode: PaymentMode | null;
  frequencyAndDuration: string | null;
  visitTrackRequired: boolean;
  /** 0 means no limit (spec 8). */
  caseVisitLimit: number;
  bodyPainNotes: string | null;
  affectedBodyParts: string[];
  therapistIds: number[];
  createdAt: Date;
  updatedAt: Date;
}

/** What a caller sends to open a case; referrals and cards are references the service resolves. */
export interface CaseDraft {
  patientId: number;
  caseTitle: string;
  specialization: string;
  clinicId?: number | null;
  directAccess?: boolean;
  referrals?: Partial<CaseReferrals>;
  icdCodes?: IcdCode[];
  treatingIcdCodes?: IcdCode[];
  insuranceCards?: Array<{ insuranceCardId: number; insuranceCardType: InsuranceCardType }>;
  numberOfPastVisits?: number;
  treatmentStatus?: TreatmentStatus;
  treatmentStartDate?: string | null;
  dateOfInjury?: string | null;
  dateOfSurgery?: string | null;
  paymentMode?: PaymentMode | null;
  frequencyAndDuration?: string | null;
  visitTrackRequired?: boolean;
  caseVisitLimit?: number;
  bodyPainNotes?: string | null;
  affectedBodyParts?: string[];
  therapistIds?: number[];
}

/** A partial update: every field optional, omitted fields keep their values (the patient never changes). */
export type CaseChanges = Patch<Omit<CaseDraft, "patientId">>;

/** The service case id as the v1 contract and events show it (spec 6.1: a string); null stays null. */
export function serviceCaseId(id: number): string;
export function serviceCaseId(id: number | null): string | null;
export function serviceCaseId(id: number | null): string | null {
  return id === null ? null : `SERVICE_CASE_${id}`;
}

/**
 * A case id as clients send it, everywhere one is taken: the id (12, as a number
 * or a string) or the service case id the API shows (SERVICE_CASE_12); at most 15
 * digits. Request schemas check the same shape with this pattern.
 */
export const SERVICE_CASE_ID_PATTERN = "^(SERVICE_CASE_)?[1-9][0-9]{0,14}$";
const SERVICE_CASE_ID = new RegExp(SERVICE_CASE_ID_PATTERN);

/** Accepts 12 or "12" or "SERVICE_CASE_12"; anything else is undefined. */
export function parseServiceCaseId(raw: unknown): number | undefined {
  const text = typeof raw === "number" ? String(raw) : typeof raw === "string" ? raw : "";
  if (!SERVICE_CASE_ID.test(text)) return undefined;
  // A case id is a row key: a larger one names no case.
  const id = Number(text.replace(/^SERVICE_CASE_/, ""));
  return id <= MAX_STORED_ID ? id : undefined;
}

/** The case id sent in `field` (12, "12" or "SERVICE_CASE_12"); VALIDATION_FAILED naming the field otherwise. */
export function requireServiceCaseId(raw: unknown, field: string): number {
  const id = parseServiceCaseId(raw);
  if (id === undefined)
    throw DomainError.validation([{ field, reason: "must be a case id or SERVICE_CASE_<id>", value: raw }]);
  return id;
}
