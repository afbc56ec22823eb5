import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * App-to-web single sign-on (docs/sso.md): the pure rules of a launch code, as OAuth 2.0's authorization code
 * (RFC 6749 section 4.1) with PKCE (RFC 7636, S256 only) and the Security BCP (RFC 9700): exact redirect URI match,
 * one-time codes that live 60 seconds, stored only as their hash.
 */
export const SSO_LIMITS = Object.freeze({
  codeLifetimeMs: 60_000,
  /** RFC 7636 section 4.1: 43 to 128 characters of [A-Z a-z 0-9 - . _ ~]. */
  verifierMin: 43,
  verifierMax: 128,
  /** The token a code is exchanged for lives 15 minutes: the web app makes its own session from it. */
  tokenLifetimeSeconds: 900,
  /** A state value is echoed back to the web app as it came: printable ASCII, bounded. */
  stateMax: 500,
  /** Redeemed codes are kept this long after they expired, so a late replay still finds (and revokes) its token. */
  keptAfterExpiryMs: 24 * 3600_000,
});

/** RFC 7636 section 4.2: an S256 challenge is BASE64URL(SHA-256(verifier)), 43 characters without padding. */
export const isS256Challenge = (challenge: string) => CHALLENGE.test(challenge);

const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
/** S256 challenges are BASE64URL(SHA-256(verifier)): 43 characters without padding. */
const CHALLENGE = /^[A-Za-z0-9\-_]{43}$/;

/** A new one-time code: 256 random bits, base64url; the store keeps only `codeHash`. */
export function newLaunchCode(): { code: string; codeHash: string } {
  const code = randomBytes(32).toString("base64url");
  return { code, codeHash: launchCodeHash(code) };
}

export const launchCodeHash = (code: string) => createHash("sha256").update(code, "utf8").digest("hex");

/** RFC 7636 section 4.6: BASE64URL(SHA-256(ASCII(code_verifier))) equals the challenge (compared in constant time). */
export function verifierMatches(verifier: string, challenge: string): boolean {
  if (!VERIFIER.test(verifier) || !CHALLENGE.test(challenge)) return false;
  const computed = Buffer.from(createHash("sha256").update(verifier, "ascii").digest("base64url"));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

/**
 * The launch URL: the registered redirect URI with `code`, `state` when sent, and `iss` when known (RFC 9207: the
 * web app checks which server answered, against mix-up attacks) added to its own query.
 */
export function launchUrl(redirectUri: string, code: string, state?: string, issuer?: string): string {
  const url = new URL(redirectUri);
  url.searchParams.append("code", code);
  if (state !== undefined) url.searchParams.append("state", state);
  if (issuer !== undefined) url.searchParams.append("iss", issuer);
  return url.toString();
}

/** The scopes of the web app's token: never wider than the app's token, narrowed to what the web client may hold. */
export const launchedScopes = (appToken: readonly string[], webClient: readonly string[]) =>
  appToken.filter((scope) => webClient.includes(scope));
