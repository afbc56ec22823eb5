import { DomainError } from "@openpractice/core";
import { createRemoteJWKSet, decodeProtectedHeader, errors as joseErrors, jwtVerify, type JWTVerifyGetKey } from "jose";
import type { Authenticator } from "./authenticator.js";
import { principalFromClaims } from "./claims.js";

export interface JwtAuthenticatorOptions {
  /** HS256 shared secret, used as its UTF-8 bytes (what every JWT library does with a string secret). */
  secret?: string;
  /** JWKS endpoint of an identity provider, for RS256/ES256 (and PS256, ES384, RS384...) tokens. */
  jwksUrl?: string;
  /** Accepted clock skew in seconds for exp/nbf. Default 30. */
  clockToleranceSeconds?: number;
}

const ASYMMETRIC = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"];
const unauthorized = (reason: string) => new DomainError("UNAUTHORIZED", "Authentication required", { reason });

function describeJoseError(error: unknown): string {
  if (error instanceof joseErrors.JWTExpired) return "token has expired";
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) return "token signature is invalid";
  if (error instanceof joseErrors.JWTClaimValidationFailed) return error.reason === "missing" ? `token has no ${error.claim} claim` : `token claim ${error.claim} is invalid (${error.reason})`;
  if (error instanceof joseErrors.JWKSNoMatchingKey) return "no key of the identity provider matches the token";
  if (error instanceof joseErrors.JOSEAlgNotAllowed) return "token algorithm is not accepted";
  if (error instanceof joseErrors.JWSInvalid || error instanceof joseErrors.JWTInvalid) return "token is malformed";
  return "token could not be verified";
}

/** Bearer JWT authentication with jose. `alg: none` and algorithms without a configured key are refused. */
export function createJwtAuthenticator(options: JwtAuthenticatorOptions): Authenticator {
  // Imported into WebCrypto once: jose would re-import a raw Uint8Array on every verify.
  const secretKey = options.secret
    ? crypto.subtle.importKey("raw", new TextEncoder().encode(options.secret), { name: "HMAC", hash: "SHA-256" }, false, ["verify"])
    : undefined;
  const jwks: JWTVerifyGetKey | undefined = options.jwksUrl ? createRemoteJWKSet(new URL(options.jwksUrl)) : undefined;
  const clockTolerance = options.clockToleranceSeconds ?? 30;
  if (!secretKey && !jwks) throw new Error("createJwtAuthenticator needs a secret or a jwksUrl");

  return {
    async authenticate(request: Request) {
      const header = request.headers.get("authorization");
      if (!header) throw unauthorized("missing Authorization header");
      const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
      if (!match) throw unauthorized("Authorization header must be 'Bearer <token>'");
      const token = match[1] as string;
      let alg: string | undefined;
      try {
        alg = decodeProtectedHeader(token).alg;
      } catch {
        throw unauthorized("token is malformed");
      }
      try {
        if (alg === "HS256" && secretKey) {
          const { payload } = await jwtVerify(token, await secretKey, { algorithms: ["HS256"], clockTolerance, requiredClaims: ["exp"] });
          return principalFromClaims(payload);
        }
        if (alg && ASYMMETRIC.includes(alg) && jwks) {
          const { payload } = await jwtVerify(token, jwks, { algorithms: ASYMMETRIC, clockTolerance, requiredClaims: ["exp"] });
          return principalFromClaims(payload);
        }
      } catch (error) {
        if (error instanceof DomainError) throw error;
        throw unauthorized(describeJoseError(error));
      }
      throw unauthorized(`token algorithm ${alg ?? "(none)"} is not accepted`);
    },
  };
}
