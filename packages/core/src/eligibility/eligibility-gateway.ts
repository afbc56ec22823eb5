import type { ClearinghouseConnection } from "./clearinghouse-connection.js";
import type { EligibilityExchange, EligibilityInquiry } from "./eligibility.js";

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
  /**
   * `connection`: the clearinghouse the organisation set through the API, which wins; without it the gateway uses
   * the host's own for the organisation (the runtime's OPENPRACTICE_ELIGIBILITY_CLEARINGHOUSES), or refuses with
   * `not_configured`.
   */
  check(
    organisationId: number,
    inquiry: EligibilityInquiry,
    connection?: ClearinghouseConnection,
  ): Promise<EligibilityExchange>;
  /** Whether the host configured a clearinghouse of its own for the organisation. */
  hasDefaultFor?(organisationId: number): boolean;
}
