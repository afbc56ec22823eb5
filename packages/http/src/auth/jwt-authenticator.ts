import { DomainError } from "@openpractice/core";
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  type JSONWebKeySet,
  decodeProtectedHeader,
  errors as joseErrors,
  jwtVerify,
  type JWTPayload,
  type JWTVerifyGetKey,
} from "jose";
import type { Authenticator } from "./authenticator.js";
import { principalFromClaims } from "./claims.js";
import { DEFAULT_VERIFIED_TOKEN_CACHE_SIZE, VerifiedTokenCache } from "./verified-token-cache.js";

export interface JwtAuthenticatorOptions {
  /** HS256 shared secret, used as its UTF-8 bytes (what every JWT library does with a string secret). */
  secret?: string | undefined;
  /**
   * JWKS endpoint of an identity provider, for RS256/ES256 (and PS256, ES384, RS384...) tokens. Needs `issuer` and
   * `audience`: one provider signs with the same keys for every application of its tenant.
   */
  jwksUrl?: string | undefined;
  /** The identity provider's `iss`: its tokens must carry exactly this issuer. Required with `jwksUrl`. */
  issuer?: string | undefined;
  /**
   * This API's name in tokens (`aud`), or several: the identity provider's tokens must name one of them. Required
   * with `jwksUrl`. Tokens of our own keys (HS256 secret, localJwks) that carry an `aud` must name one too; ours
   * without an `aud` are accepted, as the key alone binds them to this deployment.
   */
  audience?: string | readonly string[] | undefined;
  /**
   * Development only: accept the identity provider's tokens whatever their `iss` and `aud` (any application of the
   * provider's tenant gets in). Without it, `jwksUrl` without `issuer` and `audience` throws.
   */
  skipIssuerAudienceCheck?: boolean | undefined;
  /**
   * Public keys of our own token endpoint (TokenIssuer.jwks()): tokens whose kid is among them are verified locally,
   * without a shared secret or a network call.
   */
  localJwks?: JSONWebKeySet | undefined;
  /** Accepted clock skew in seconds for exp/nbf. Default 30. */
  clockToleranceSeconds?: number | undefined;
  /**
   * The longest accepted token lifetime in seconds; default 24 hours. A token
   * is refused when exp − iat exceeds it, or when exp lies further than it
   * (plus the clock tolerance) ahead of now, so a token without iat cannot
   * live longer either.
   */
  maxLifetimeSeconds?: number | undefined;
  /**
   * How many verified tokens to remember, so a client's next request with the same token skips the signature check
   * (until the token expires, five minutes at most). Default 1,000; 0 verifies every request in full.
   */
  verifiedTokenCacheSize?: number | undefined;
}

/** Default longest token lifetime: 24 hours. */
export const DEFAULT_MAX_TOKEN_LIFETIME_SECONDS = 24 * 3600;
/** The longest accepted token (the characters after "Bearer "); longer ones are refused before any parsing. */
export const MAX_TOKEN_LENGTH = 16 * 1024;

const ASYMMETRIC = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"];
const unauthorized = (reason: string) => new DomainError("UNAUTHORIZED", "Authentication required", { reason });
// The header's alg is the caller's text: it is never echoed.
const UNSUPPORTED_ALGORITHM = "token uses an unsupported algorithm";

/** Why a token's claim failed jose's check, in words that never repeat the claim's value. */
const FAILED_CLAIM: Readonly<Record<string, string>> = {
  iss: "token was issued by another issuer than the configured identity provider",
  aud: "token is for another audience than this API",
  nbf: "token is not valid yet",
};

function describeJoseError(error: unknown): string {
  if (error instanceof joseErrors.JWTExpired) return "token has expired";
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) return "token signature is invalid";
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    if (error.reason === "missing") return `token has no ${error.claim} claim`;
    if (error.reason === "check_failed" && FAILED_CLAIM[error.claim]) return FAILED_CLAIM[error.claim] as string;
    return `token claim ${error.claim} is invalid (${error.reason})`;
  }
  if (error instanceof joseErrors.JWKSNoMatchingKey) return "no key of the identity provider matches the token";
  if (error instanceof joseErrors.JOSEAlgNotAllowed) return UNSUPPORTED_ALGORITHM;
  if (error instanceof joseErrors.JWSInvalid || error instanceof joseErrors.JWTInvalid) return "token is malformed";
  return "token could not be verified";
}

/** Bearer JWT authentication with jose. `alg: none` and algorithms without a configured key are refused. */
export function createJwtAuthenticator(options: JwtAuthenticatorOptions): Authenticator {
  // Imported into WebCrypto once: jose would re-import a raw Uint8Array on every verify.
  const secretKey = options.secret
    ? crypto.subtle.importKey(
        "raw",
        new TextEncoder().encode(options.secret),
        { name: "HMAC", hash: "SHA-256" },
        false,
        ["verify"],
      )
    : undefined;
  const remote: JWTVerifyGetKey | undefined = options.jwksUrl
    ? createRemoteJWKSet(new URL(options.jwksUrl))
    : undefined;
  const localKids = new Set((options.localJwks?.keys ?? []).map((k) => k.kid));
  const local = options.localJwks && localKids.size > 0 ? createLocalJWKSet(options.localJwks) : undefined;
  const audience = typeof options.audience === "string" ? [options.audience] : [...(options.audience ?? [])];
  if (audience.some((a) => typeof a !== "string" || a === ""))
    throw new Error("createJwtAuthenticator: audience must be non-empty strings");
  if (options.issuer === "") throw new Error("createJwtAuthenticator: issuer must not be empty");
  if (remote && !options.skipIssuerAudienceCheck && (!options.issuer || audience.length === 0))
    throw new Error(
      "createJwtAuthenticator: jwksUrl needs issuer (the identity provider's iss) and audience (this API's aud): " +
        "without them a token the provider signed for any other application would be accepted",
    );
  // The identity provider's tokens must name it and this API (RFC 8725 3.8, 3.9), unless skipped for development.
  const bound = !options.skipIssuerAudienceCheck;
  const providerClaims = {
    ...(bound && options.issuer ? { issuer: options.issuer } : {}),
    ...(bound && audience.length > 0 ? { audience } : {}),
  };
  const clockTolerance = options.clockToleranceSeconds ?? 30;
  const maxLifetime = options.maxLifetimeSeconds ?? DEFAULT_MAX_TOKEN_LIFETIME_SECONDS;
  if (!secretKey && !local && !remote) throw new Error("createJwtAuthenticator needs a secret, a jwksUrl or localJwks");
  if (!(maxLifetime > 0)) throw new Error("createJwtAuthenticator: maxLifetimeSeconds must be positive");
  const verified = new VerifiedTokenCache(
    options.verifiedTokenCacheSize ?? DEFAULT_VERIFIED_TOKEN_CACHE_SIZE,
    clockTolerance,
  );

  /** The principal of a verified payload whose lifetime is within the maximum. */
  function principalOf(payload: JWTPayload) {
    const exp = payload.exp as number; // required and checked to be a number by jwtVerify
    const tooLong =
      (typeof payload.iat === "number" && exp - payload.iat > maxLifetime) ||
      exp - Date.now() / 1000 > maxLifetime + clockTolerance;
    if (tooLong) throw unauthorized(`token lifetime exceeds the maximum of ${maxLifetime} seconds`);
    return principalFromClaims(payload);
  }

  /**
   * A token of our own keys names this API when it names an audience at all. One without `aud` is ours by its key
   * (tokens signed before an audience was configured, HS256 tokens of other libraries), so it is not refused.
   */
  function assertOwnAudience(payload: JWTPayload) {
    if (audience.length === 0 || payload.aud === undefined) return;
    const named = typeof payload.aud === "string" ? [payload.aud] : Array.isArray(payload.aud) ? payload.aud : [];
    if (!named.some((a) => audience.includes(a))) throw unauthorized(FAILED_CLAIM.aud as string);
  }

  /** The principal of a token just verified, remembered once its lifetime is known to be within the maximum. */
  function verifiedPrincipal(token: string, payload: JWTPayload) {
    const principal = principalOf(payload);
    verified.remember(token, payload);
    return principal;
  }

  return {
    async authenticate(request: Request) {
      const authorization = request.headers.get("authorization");
      if (!authorization) throw unauthorized("missing Authorization header");
      const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
      if (!match) throw unauthorized("Authorization header must be 'Bearer <token>'");
      const token = match[1] as string;
      if (token.length > MAX_TOKEN_LENGTH)
        throw unauthorized(`token is too large (at most ${MAX_TOKEN_LENGTH} characters)`);
      const known = verified.get(token);
      if (known) return principalOf(known);
      let header: ReturnType<typeof decodeProtectedHeader>;
      try {
        header = decodeProtectedHeader(token);
      } catch {
        throw unauthorized("token is malformed");
      }
      const alg: unknown = header.alg;
      const common = { clockTolerance, requiredClaims: ["exp"] };
      try {
        if (alg === "HS256" && secretKey) {
          const { payload } = await jwtVerify(token, await secretKey, { ...common, algorithms: ["HS256"] });
          assertOwnAudience(payload);
          return verifiedPrincipal(token, payload);
        }
        if (typeof alg === "string" && ASYMMETRIC.includes(alg)) {
          // Our own keys by kid; anything else goes to the identity provider's set, when one is configured.
          if (local && (localKids.has(header.kid) || !remote)) {
            const { payload } = await jwtVerify(token, local, { ...common, algorithms: ASYMMETRIC });
            assertOwnAudience(payload);
            return verifiedPrincipal(token, payload);
          }
          if (remote) {
            const { payload } = await jwtVerify(token, remote, {
              ...common,
              ...providerClaims,
              algorithms: ASYMMETRIC,
            });
            // Only this server issues single sign-on tokens: an identity provider's `sso` claim means nothing here.
            const { sso: _notOurs, ...claims } = payload;
            return verifiedPrincipal(token, claims);
          }
        }
      } catch (error) {
        if (error instanceof DomainError) throw error;
        throw unauthorized(describeJoseError(error));
      }
      throw unauthorized(UNSUPPORTED_ALGORITHM);
    },
  };
}
