import {
  type ClearinghouseConnection,
  type EligibilityExchange,
  type EligibilityGateway,
  EligibilityGatewayError,
  type EligibilityInquiry,
} from "@openpractice/core";
import type { Clearinghouse } from "./clearinghouse.js";
import { postToClearinghouse } from "./clearinghouse-transport.js";
import { build270 } from "./x12-270.js";
import { Invalid271Error, parse271 } from "./x12-271.js";

export interface X12EligibilityGatewayOptions {
  /** The organisation's clearinghouse, or undefined when it has none (checks are then ELIGIBILITY_NOT_CONFIGURED). */
  clearinghouseFor(organisationId: number): Clearinghouse | undefined;
  now?: () => Date;
  /**
   * Let clearinghouses organisations set through the API resolve to loopback and private addresses (development,
   * local test clearinghouses); default false: public addresses only.
   */
  allowPrivateAddresses?: boolean;
}

/**
 * Real-time eligibility over ASC X12 005010X279A1: builds the 270 (node-x12), sends it to the organisation's
 * clearinghouse over HTTPS and reads the 271 into a structured result or the payer's AAA rejections.
 */
export class X12EligibilityGateway implements EligibilityGateway {
  /** ISA13/GS06 control numbers: increasing per process, starting from the clock so restarts rarely repeat one. */
  private control = Math.floor(Date.now() / 1000) % 900_000_000;

  constructor(private readonly options: X12EligibilityGatewayOptions) {}

  hasDefaultFor(organisationId: number): boolean {
    return this.options.clearinghouseFor(organisationId) !== undefined;
  }

  async check(
    organisationId: number,
    inquiry: EligibilityInquiry,
    connection?: ClearinghouseConnection,
  ): Promise<EligibilityExchange> {
    const ch = connection ?? this.options.clearinghouseFor(organisationId);
    if (!ch)
      throw new EligibilityGatewayError(
        "not_configured",
        `No clearinghouse is configured for organisation ${organisationId}; record results by hand on v1`,
      );
    this.control = (this.control % 999_999_999) + 1;
    const request = build270(inquiry, ch, {
      controlNumber: this.control,
      now: (this.options.now ?? (() => new Date()))(),
    });
    const response = await postToClearinghouse(ch, request, {
      allowPrivateAddresses: this.options.allowPrivateAddresses ?? false,
    });
    try {
      return { request, response, ...parse271(response, inquiry.traceNumber) };
    } catch (error) {
      if (error instanceof Invalid271Error)
        throw new EligibilityGatewayError("invalid_response", error.message, request, response);
      throw error;
    }
  }
}
