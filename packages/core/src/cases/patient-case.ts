import type { Patch } from "../kernel/patch.js";
import type { PaymentMode } from "./payment-mode.js";
import type { InsuranceCard } from "../coverages/coverage.js";

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
