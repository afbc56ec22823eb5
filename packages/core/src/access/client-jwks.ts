import type { ValidationIssue } from "../kernel/domain-error.js";

/**
 * The public keys an API client authenticates with at the token endpoint (SMART Backend Services,
 * `private_key_jwt`, RFC 7523; docs/authentication.md): a JWK Set given inline, or the URL the server fetches it from.
 * SMART asks servers to accept ES384 and RS384: EC keys on P-384 and RSA keys of at least 2048 bits.
 */
export const CLIENT_JWKS_LIMITS = Object.freeze({ maxKeys: 10, jwksUriMax: 2000, jwksMaxBytes: 64 * 1024 });

/** The signature algorithms a client assertion may use. */
export const CLIENT_ASSERTION_ALGORITHMS = Object.freeze(["ES384", "RS384"] as const);

/** A public JWK as stored (the members RFC 7517/7518 define for EC and RSA public keys). */
export type PublicJwk = Readonly<Record<string, string | readonly string[]>>;

/** A JWK Set of public keys. */
export interface PublicJwks {
  keys: readonly PublicJwk[];
}

/** Members of a private or symmetric key: a client registers public keys only. */
const PRIVATE_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"];
const BASE64URL = /^[A-Za-z0-9_-]+$/;

function keyProblem(key: unknown): string | undefined {
  if (!key || typeof key !== "object" || Array.isArray(key)) return "must be a JWK object";
  const k = key as Record<string, unknown>;
  if (PRIVATE_MEMBERS.some((m) => m in k)) return "must be a public key: private key members are never sent";
  if (k.alg !== undefined && !(CLIENT_ASSERTION_ALGORITHMS as readonly string[]).includes(String(k.alg)))
    return `alg must be ${CLIENT_ASSERTION_ALGORITHMS.join(" or ")}`;
  if (k.use !== undefined && k.use !== "sig") return "use must be sig";
  if (k.kid !== undefined && (typeof k.kid !== "string" || k.kid.length === 0 || k.kid.length > 200))
    return "kid must be a string of 1 to 200 characters";
  if (k.kty === "EC") {
    if (k.crv !== "P-384") return "an EC key must be on P-384 (ES384)";
    if (typeof k.x !== "string" || typeof k.y !== "string" || !BASE64URL.test(k.x) || !BASE64URL.test(k.y))
      return "an EC key needs x and y (base64url)";
    return undefined;
  }
  if (k.kty === "RSA") {
    if (typeof k.n !== "string" || typeof k.e !== "string" || !BASE64URL.test(k.n) || !BASE64URL.test(k.e))
      return "an RSA key needs n and e (base64url)";
    // 2048 bits: 256 bytes, 342 base64url characters (an unpadded leading zero byte aside).
    if (k.n.length < 342) return "an RSA key must have at least 2048 bits";
    return undefined;
  }
  return "kty must be EC (P-384) or RSA";
}

/** The problems of a JWK Set a client registers, by field (`jwks`, `jwks.keys.<n>`). */
export function jwksIssues(jwks: unknown, field = "jwks"): ValidationIssue[] {
  if (jwks === null) return [];
  if (!jwks || typeof jwks !== "object" || Array.isArray(jwks) || !Array.isArray((jwks as PublicJwks).keys))
    return [{ field, reason: 'must be a JWK Set: {"keys": [...]}' }];
  const keys = (jwks as PublicJwks).keys;
  if (keys.length === 0 || keys.length > CLIENT_JWKS_LIMITS.maxKeys)
    return [{ field: `${field}.keys`, reason: `must hold 1 to ${CLIENT_JWKS_LIMITS.maxKeys} keys` }];
  if (JSON.stringify(jwks).length > CLIENT_JWKS_LIMITS.jwksMaxBytes)
    return [{ field, reason: `must be at most ${CLIENT_JWKS_LIMITS.jwksMaxBytes} bytes` }];
  return keys.flatMap((key, i) => {
    const problem = keyProblem(key);
    return problem ? [{ field: `${field}.keys.${i}`, reason: problem }] : [];
  });
}

/** The problem of a JWK Set URL: https, or http on a loopback address for development. */
export function jwksUriIssues(uri: unknown, field = "jwksUri"): ValidationIssue[] {
  if (uri === null) return [];
  if (typeof uri !== "string" || uri.length === 0 || uri.length > CLIENT_JWKS_LIMITS.jwksUriMax)
    return [{ field, reason: `must be a URL of 1 to ${CLIENT_JWKS_LIMITS.jwksUriMax} characters`, value: uri }];
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return [{ field, reason: "is not an absolute URL", value: uri }];
  }
  if (url.username || url.password || url.hash)
    return [{ field, reason: "must carry no credentials or fragment", value: uri }];
  const loopback = ["127.0.0.1", "[::1]", "localhost"].includes(url.hostname);
  if (url.protocol === "https:" || (url.protocol === "http:" && loopback)) return [];
  return [{ field, reason: "must be https (http only on a loopback address)", value: uri }];
}

/** The copy stored of a registered JWK Set: public members only, keys in the order given. */
export function storedJwks(jwks: PublicJwks): PublicJwks {
  return {
    keys: jwks.keys.map((k) => Object.fromEntries(Object.entries(k).filter(([m]) => !PRIVATE_MEMBERS.includes(m)))),
  };
}
