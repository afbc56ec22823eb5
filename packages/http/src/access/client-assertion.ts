import { type ApiClient, CLIENT_ASSERTION_ALGORITHMS } from "@openpractice/core";
import { createLocalJWKSet, createRemoteJWKSet, customFetch, decodeJwt, type JWTVerifyGetKey, jwtVerify } from "jose";

/** RFC 7523 section 2.2: the client_assertion_type of a JWT client assertion. */
export const CLIENT_ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

/** Fetches a client's JWK Set URL; the runtime passes one that refuses private addresses outside development. */
export type JwksFetch = (url: string, init: RequestInit) => Promise<Response>;

/** How long a fetched JWK Set is used before it is fetched again, and the least time between two fetches. */
const REMOTE_CACHE_MS = 5 * 60_000;
const REMOTE_COOLDOWN_MS = 30_000;

/** The `iss` of an assertion read without checking it (to find the client whose keys check it), or undefined. */
export function assertionIssuer(assertion: string): string | undefined {
  try {
    const iss = decodeJwt(assertion).iss;
    return typeof iss === "string" && iss.length > 0 && iss.length <= 100 ? iss : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Checks client assertions (RFC 7523, SMART Backend Services) with jose: signed by one of the client's registered
 * keys (its inline JWK Set, or the set at its URL, cached five minutes and fetched again when a kid is unknown), by
 * ES384 or RS384, `iss` and `sub` the client id, `aud` the token endpoint's URL, `exp` and `jti` present. Answers the
 * jti and the expiry; the rest (five minutes at most, a jti once) is core's.
 */
export function createClientAssertionVerifier(fetchJwks?: JwksFetch) {
  const remote = new Map<string, JWTVerifyGetKey>();
  const keysOf = (client: ApiClient): JWTVerifyGetKey => {
    if (client.jwks) return createLocalJWKSet(structuredClone(client.jwks) as never);
    const url = client.jwksUri as string;
    let keys = remote.get(url);
    if (!keys) {
      keys = createRemoteJWKSet(new URL(url), {
        cacheMaxAge: REMOTE_CACHE_MS,
        cooldownDuration: REMOTE_COOLDOWN_MS,
        timeoutDuration: 5000,
        ...(fetchJwks ? { [customFetch]: fetchJwks } : {}),
      });
      remote.set(url, keys);
    }
    return keys;
  };
  return async (client: ApiClient, assertion: string, audience: string) => {
    const { payload } = await jwtVerify(assertion, keysOf(client), {
      issuer: client.clientId,
      subject: client.clientId,
      audience,
      algorithms: [...CLIENT_ASSERTION_ALGORITHMS],
      requiredClaims: ["iss", "sub", "aud", "exp", "jti"],
      clockTolerance: 5,
    });
    return { jti: String(payload.jti), expiresAt: new Date((payload.exp as number) * 1000) };
  };
}
