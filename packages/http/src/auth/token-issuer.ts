import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from "jose";

/** One ES256 key of the issuer, as the runtime keeps it (private part included) in its data directory. */
export interface StoredSigningKey {
  kid: string;
  /** The private key as a JWK (kty EC, crv P-256, d present). */
  privateJwk: JWK;
  /** When it started signing (ISO 8601). */
  createdAt: string;
}

/** The claims of an access token; the same ones every route reads (docs/authentication.md). */
export interface AccessTokenClaims {
  organisationId?: number | undefined;
  platform?: boolean | undefined;
  userId?: number | null | undefined;
  name?: string | undefined;
  clientId?: string | undefined;
  scope: string;
  clinicIds?: readonly number[] | undefined;
  /** A token of single sign-on (claim sso: true), revocable by its id. */
  sso?: { tokenId: string; lifetimeSeconds: number } | undefined;
}

/** Signs the tokens POST /oauth/token issues and publishes the public keys at /.well-known/jwks.json. */
export interface TokenIssuer {
  /** Lifetime of issued tokens in seconds. */
  readonly lifetimeSeconds: number;
  sign(claims: AccessTokenClaims): Promise<string>;
  /** The public keys verifiers need: every stored key (the newest signs, older ones verify tokens still alive). */
  jwks(): { keys: JWK[] };
}

/** A new ES256 key to sign with (kid: its creation time and random bits). */
export async function generateSigningKey(now = new Date()): Promise<StoredSigningKey> {
  const { privateKey } = await generateKeyPair("ES256", { extractable: true });
  const privateJwk = await exportJWK(privateKey);
  const kid = `es256-${now.toISOString().slice(0, 10)}-${crypto.randomUUID().slice(0, 8)}`;
  return { kid, privateJwk: { ...privateJwk, kid, alg: "ES256", use: "sig" }, createdAt: now.toISOString() };
}

/** The public half of a stored key, as a JWKS lists it. */
export function publicJwkOf(key: StoredSigningKey): JWK {
  const { d: _private, ...publicPart } = key.privateJwk;
  return { ...publicPart, kid: key.kid, alg: "ES256", use: "sig" };
}

export interface TokenIssuerOptions {
  /** The signing keys; the newest (by createdAt) signs. At least one. */
  keys: readonly StoredSigningKey[];
  /** Lifetime of issued tokens; default 3600 s (one hour). */
  lifetimeSeconds?: number | undefined;
  /** The iss claim, when set (the server's public URL). */
  issuer?: string | undefined;
  /** The aud claim, when set: this API's name, as the identity provider's tokens carry it (RFC 9068). */
  audience?: string | undefined;
}

/** An ES256 token issuer over the given keys. */
export function createTokenIssuer(options: TokenIssuerOptions): TokenIssuer {
  if (options.keys.length === 0) throw new Error("createTokenIssuer needs at least one signing key");
  const newest = [...options.keys].sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1))[0] as StoredSigningKey;
  const signingKey = importJWK(newest.privateJwk, "ES256");
  const lifetimeSeconds = options.lifetimeSeconds ?? 3600;
  const jwks = Object.freeze({ keys: options.keys.map(publicJwkOf) });
  return {
    lifetimeSeconds,
    jwks: () => jwks,
    async sign(claims) {
      const payload: Record<string, unknown> = { scope: claims.scope };
      if (claims.platform) payload.platform = true;
      else payload.organisation_id = claims.organisationId;
      if (claims.userId != null) payload.user_id = claims.userId;
      if (claims.name) payload.name = claims.name;
      if (claims.clientId) payload.client_id = claims.clientId;
      if (claims.clinicIds?.length) payload.clinic_id_list = [...claims.clinicIds];
      if (claims.sso) payload.sso = true;
      let jwt = new SignJWT(payload)
        .setProtectedHeader({ alg: "ES256", typ: "at+jwt", kid: newest.kid })
        .setIssuedAt()
        .setJti(claims.sso?.tokenId ?? crypto.randomUUID())
        // A single sign-on token is the user's, used by the web app; a client credentials token is the client's.
        .setSubject(claims.sso ? String(claims.userId) : (claims.clientId ?? String(claims.userId ?? "client")))
        .setExpirationTime(`${claims.sso?.lifetimeSeconds ?? lifetimeSeconds}s`);
      if (options.issuer) jwt = jwt.setIssuer(options.issuer);
      if (options.audience) jwt = jwt.setAudience(options.audience);
      return jwt.sign(await signingKey);
    },
  };
}
