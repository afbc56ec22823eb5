import type {
  EligibilityCheck,
  EligibilityCheckRecord,
  EligibilityExchange,
  EligibilityInquiry,
} from "../eligibility/eligibility.js";

export type EligibilityFailureKind = "not_configured" | "timeout" | "unavailable" | "invalid_response";

/**
 * A check that got no usable answer, with what was exchanged so far (kept for audit). `not_configured`: the
 * organisation has no clearinghouse; `timeout`: none answered in time; `unavailable`: the connection or the
 * clearinghouse failed; `invalid_response`: the answer was not a 271 for this request.
 */
export class EligibilityGatewayError extends Error {
  constructor(
    readonly kind: EligibilityFailureKind,
    message: string,
    readonly request: string | null = null,
    readonly response: string | null = null,
  ) {
    super(message);
    this.name = "EligibilityGatewayError";
  }
}

/**
 * Real-time eligibility (X12 270/271 or any other exchange): one inquiry of one organisation. Resolves with the
 * exchange (a 271 with benefits, or with AAA rejections); throws EligibilityGatewayError when there is no answer.
 */
export interface EligibilityGateway {
  check(organisationId: number, inquiry: EligibilityInquiry): Promise<EligibilityExchange>;
}

/** Storage of checks. */
export interface EligibilityCheckRepository {
  insert(record: EligibilityCheckRecord): Promise<number>;
  /** A coverage's checks, newest first. */
  listByCoverage(
    organisationId: number,
    coverageId: number,
    page: { limit: number; offset: number },
  ): Promise<{ checks: EligibilityCheck[]; total: number }>;
  /** The newest active or inactive check of each coverage among `coverageIds`. */
  latestAnswered(organisationId: number, coverageIds: readonly number[]): Promise<EligibilityCheck[]>;
}
