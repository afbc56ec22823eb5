import type { Principal } from "@openpractice/core";

/**
 * Turns a request's credentials into a principal. The HTTP layer only knows
 * this interface, so a vendor can map their own sessions to our claims.
 * Implementations throw DomainError UNAUTHORIZED with details.reason.
 */
export interface Authenticator {
  authenticate(request: Request): Promise<Principal>;
}
