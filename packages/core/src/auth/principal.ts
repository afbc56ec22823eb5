/**
 * The authenticated caller, as the core sees it. How it was authenticated (JWT,
 * a vendor's session) is the host's business; the core only trusts this shape.
 */
export interface Principal {
  organisationId: number;
  userId: number | null;
  /** Display name from the token, for audit trails only. */
  name: string | null;
  /** The organisation's name from the token (`organisation_name`), used when an organisation is first created from a token. */
  organisationName?: string | null;
  /** The API client the token was issued to (claim client_id, POST /oauth/token), for the audit trail. */
  clientId?: string | null;
  /**
   * The id (jti) of a token issued by single sign-on (claim sso): such a token is refused once its code was
   * presented again (docs/sso.md). Absent for every other token.
   */
  ssoTokenId?: string | null;
  /** When the caller's token expires (claim exp), where known: single sign-on never issues past it. */
  tokenExpiresAt?: Date | null;
  scopes: readonly string[];
  clinicIds: readonly number[];
  roles: readonly string[];
}

/** True when the principal holds at least one of the given scopes. */
export function hasAnyScope(principal: Principal, accepted: readonly string[]): boolean {
  return accepted.some((scope) => principal.scopes.includes(scope));
}

/** The scope of platform operators (vendors hosting many organisations); organisation tokens never carry it. */
export const PLATFORM_SCOPE = "platform:admin";

/**
 * Platform principals act on organisations (/v2/organisations), never inside one: they belong to no
 * organisation, which the id 0 stands for (no organisation has it).
 */
export const PLATFORM_ORGANISATION_ID = 0;

export const isPlatformPrincipal = (principal: Principal) => principal.organisationId === PLATFORM_ORGANISATION_ID;
