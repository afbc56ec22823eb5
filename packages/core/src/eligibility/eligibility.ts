import type { InsuranceCard } from "../coverages/coverage.js";

/**
 * The X12 service type codes a therapy clinic asks about: health benefit plan coverage (30), physical therapy (PT),
 * occupational therapy (AD) and chiropractic (33).
 */
export const ELIGIBILITY_SERVICE_TYPES = ["30", "PT", "AD", "33"] as const;
export type EligibilityServiceType = (typeof ELIGIBILITY_SERVICE_TYPES)[number];

/** An amount with what is left of it this period (either may be unknown). */
export interface RemainingAmount {
  total: number | null;
  remaining: number | null;
}

/** What the payer says about one service type, in-network where it tells networks apart. */
export interface ServiceBenefits {
  /** Per visit, in dollars. */
  copay: number | null;
  /** The patient's share, 0 to 100. */
  coinsurancePercent: number | null;
  deductible: RemainingAmount;
  outOfPocket: RemainingAmount;
  visits: { limit: number | null; used: number | null; remaining: number | null };
  priorAuthorizationRequired: boolean | null;
}

/**
 * A payer's refusal to answer (X12 AAA segment): the reject reason code and what to do next. Checks kept before
 * the loop and retry fields existed read without them (undefined: unknown).
 */
export interface EligibilityRejection {
  code: string;
  reason: string;
  followUp: string | null;
  /** The 271 loop it came in: 2000A or 2100A (the payer), 2100B (the provider), 2000C/2100C (the subscriber), 2110C (a benefit), and D for a dependent. */
  loop?: string | null;
  /** AAA01: Y, the request was valid (the payer could not answer it now); N, it was not. */
  validRequest?: boolean | null;
  /** Whether the same check may be sent again (see `rejectionRetry`). */
  retryable?: boolean;
  /** Days to wait before sending it again (AAA04 W: 30, X: 10); null: at once. */
  retryAfterDays?: number | null;
}

/** When a rejected check can be sent again: null when it cannot (as is), else the earliest time. */
export function rejectionRetryAt(rejection: EligibilityRejection, checkedAt: Date): Date | null {
  if (!rejection.retryable) return null;
  return new Date(checkedAt.getTime() + (rejection.retryAfterDays ?? 0) * 86_400_000);
}

/**
 * A rejection under the field names the API shows it with, in ELIGIBILITY_REJECTED's details and in a check's
 * view alike; `time` writes retry_after as the contract writes times. Stored rejections without the newer fields
 * read as unknown (null) and not retryable.
 */
export function rejectionDetails(
  r: EligibilityRejection,
  checkedAt: Date,
  time: (d: Date) => string = (d) => d.toISOString(),
) {
  const retryAt = rejectionRetryAt(r, checkedAt);
  return {
    code: r.code,
    reason: r.reason,
    follow_up: r.followUp,
    loop: r.loop ?? null,
    valid_request: r.validRequest ?? null,
    retryable: r.retryable ?? false,
    retry_after: retryAt ? time(retryAt) : null,
  };
}

/** The structured answer of a check, real-time or taken by phone. */
export interface EligibilityResult {
  active: boolean;
  planStartDate: string | null;
  planEndDate: string | null;
  benefits: Partial<Record<EligibilityServiceType, ServiceBenefits>>;
}

export const ELIGIBILITY_CHECK_STATUSES = ["active", "inactive", "rejected", "failed"] as const;
export type EligibilityCheckStatus = (typeof ELIGIBILITY_CHECK_STATUSES)[number];

/** One check of a coverage, kept for audit with the raw documents exchanged. */
export interface EligibilityCheck {
  id: number;
  organisationId: number;
  patientId: number;
  coverageId: number;
  /** realtime: a 270/271 exchange; manual: a result recorded by hand (e.g. from a phone call). */
  source: "realtime" | "manual";
  status: EligibilityCheckStatus;
  serviceDate: string;
  result: EligibilityResult | null;
  rejections: EligibilityRejection[];
  /** For a failed check: why (ELIGIBILITY_TIMEOUT, ELIGIBILITY_INVALID_RESPONSE, ELIGIBILITY_UNAVAILABLE). */
  errorCode: string | null;
  errorMessage: string | null;
  /** The X12 270 sent and 271 received; null for a manual check (and the 271 when none came). */
  request: string | null;
  response: string | null;
  /** A manual check's reference (the payer's call reference) and notes. */
  reference: string | null;
  notes: string | null;
  /** The user who checked; null for an API client acting for no user. */
  checkedBy: number | null;
  checkedAt: Date;
}

export type EligibilityCheckRecord = Omit<EligibilityCheck, "id">;

/** What a gateway is asked: who, under which coverage, for which service types on which date. */
export interface EligibilityInquiry {
  /** Ours, echoed back in the 271's TRN: ties the answer to the question. */
  traceNumber: string;
  serviceDate: string;
  serviceTypes: readonly EligibilityServiceType[];
  coverage: InsuranceCard;
  patient: { firstName: string; lastName: string; dateOfBirth: string | null };
}

/** A gateway's answer: the documents exchanged and what the payer said (a result, or its rejections). */
export interface EligibilityExchange {
  request: string;
  response: string;
  result: EligibilityResult | null;
  rejections: EligibilityRejection[];
}
