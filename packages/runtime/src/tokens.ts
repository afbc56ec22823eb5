import { SignJWT } from "jose";

export interface TokenClaims {
  /** Ignored for a platform token. */
  organisationId: number;
  /** A platform token (claim platform: true, no organisation): scope platform:admin, for /v2/organisations. */
  platform?: boolean | undefined;
  userId?: number | undefined;
  name?: string | undefined;
  /** The organisation's display name (claim organisation_name), used when the organisation is first created from a token. */
  organisationName?: string | undefined;
  scope?: string | undefined;
  clinicIds?: number[] | undefined;
  roles?: string[] | undefined;
  /** The aud claim (this API's name, OPENPRACTICE_JWT_AUDIENCE); without it the token has none. */
  audience?: string | undefined;
  /** Lifetime in seconds; default 12 hours. */
  ttlSeconds?: number | undefined;
}

/** An HS256 token with the claims the API reads (docs/authentication.md). */
export async function signAccessToken(secret: string, claims: TokenClaims): Promise<string> {
  const payload: Record<string, unknown> = claims.platform
    ? { platform: true }
    : { organisation_id: claims.organisationId };
  if (claims.userId !== undefined) payload.user_id = claims.userId;
  if (claims.name) payload.name = claims.name;
  if (claims.organisationName) payload.organisation_name = claims.organisationName;
  if (claims.scope) payload.scope = claims.scope;
  if (claims.clinicIds?.length) payload.clinic_id_list = claims.clinicIds;
  if (claims.roles?.length) payload.roles = claims.roles;
  if (claims.audience) payload.aud = claims.audience;
  return new SignJWT(payload)
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuedAt()
    .setSubject(String(claims.userId ?? `org-${claims.organisationId}`))
    .setExpirationTime(`${claims.ttlSeconds ?? 12 * 3600}s`)
    .sign(new TextEncoder().encode(secret));
}
