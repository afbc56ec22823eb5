import type { Patch } from "../kernel/patch.js";
import type { IcdCode } from "./patient-case.js";

export const AUTHORIZATION_STATUSES = ["ACTIVE", "INACTIVE", "EXPIRED"] as const;
export type AuthorizationStatus = (typeof AUTHORIZATION_STATUSES)[number];

/** Units a payer authorized for one CPT code. */
export interface CptAuthorization {
  cptCode: string;
  authorizedUnits: number;
}

/** A payer's authorization of visits on a case. Dates are YYYY-MM-DD, windows inclusive. */
export interface Authorization {
  id: number;
  organisationId: number;
  caseId: number;
  patientId: number;
  /** The patient's coverage it was granted under (v2 writes one); null for one written on v1. */
  coverageId: number | null;
  referenceNumber: string;
  payerName: string;
  payerId: string | null;
  planStartDate: string | null;
  planEndDate: string | null;
  effectiveStartDate: string;
  effectiveEndDate: string;
  authorizedVisits: number;
  /** Visits consumed before this system tracked the authorization. */
  previouslyConsumedVisits: number;
  /** As stored; reads report EXPIRED once the effective end date has passed. */
  status: AuthorizationStatus;
  icdCodes: IcdCode[];
  cptCodeAuthorizationDetails: CptAuthorization[];
  createdAt: Date;
  updatedAt: Date;
}

export type AuthorizationDraft = Omit<
  Authorization,
  | "id"
  | "organisationId"
  | "patientId"
  | "createdAt"
  | "updatedAt"
  | "status"
  | "previouslyConsumedVisits"
  | "icdCodes"
  | "cptCodeAuthorizationDetails"
  | "payerId"
  | "planStartDate"
  | "planEndDate"
  | "coverageId"
  | "payerName"
> &
  Partial<
    Pick<
      Authorization,
      | "coverageId"
      | "payerName"
      | "status"
      | "previouslyConsumedVisits"
      | "icdCodes"
      | "cptCodeAuthorizationDetails"
      | "payerId"
      | "planStartDate"
      | "planEndDate"
    >
  >;

/** Partial: omitted fields keep their values; icdCodes and cptCodeAuthorizationDetails replace the whole list. The case never changes. */
export type AuthorizationChanges = Patch<Omit<AuthorizationDraft, "caseId">>;
