import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { ValidationIssue } from "../kernel/domain-error.js";

/**
 * App-to-web single sign-on (issue 49, part 3; branch work, not yet served): the pure rules of a launch code, as
 * OAuth 2.0's authorization code (RFC 6749 section 4.1) with PKCE (RFC 7636, S256 only) and the Security BCP
 * (RFC 9700): exact redirect URI match, one-time codes that live 60 seconds, stored only as their hash.
 */
export const SSO_LIMITS = Object.freeze({
  codeLifetimeMs: 60_000,
  /** RFC 7636 section 4.1: 43 to 128 characters of [A-Z a-z 0-9 - . _ ~]. */
  verifierMin: 43,
  verifierMax: 128,
  maxRedirectUris: 10,
  redirectUriMax: 2000,
});

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
 * A redirect URI an API client may register (RFC 9700 section 2.1: exact string match at use, so no wildcards): an
 * absolute https URL without a fragment, or http on a loopback address for development (RFC 8252 section 7.3).
 */
export function redirectUriIssues(uris: readonly unknown[], field = "redirectUris"): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (uris.length > SSO_LIMITS.maxRedirectUris)
    issues.push({ field, reason: `must hold at most ${SSO_LIMITS.maxRedirectUris} URIs` });
  uris.forEach((uri, i) => {
    const problem = redirectUriProblem(uri);
    if (problem) issues.push({ field: `${field}.${i}`, reason: problem, value: uri });
  });
  return issues;
}

function redirectUriProblem(uri: unknown): string | undefined {
  if (typeof uri !== "string" || uri.length === 0 || uri.length > SSO_LIMITS.redirectUriMax)
    return `must be a URL of 1 to ${SSO_LIMITS.redirectUriMax} characters`;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return "is not an absolute URL";
  }
  if (url.hash !== "" || uri.includes("#")) return "must not carry a fragment (RFC 6749 section 3.1.2)";
  if (url.username || url.password) return "must not carry credentials";
  if (url.protocol === "https:") return undefined;
  const loopback = ["127.0.0.1", "[::1]", "localhost"].includes(url.hostname);
  if (url.protocol === "http:" && loopback) return undefined;
  return "must be https (http only on a loopback address)";
}

/** The launch URL: the registered redirect URI with `code` (and `state` when sent) added to its query. */
export function launchUrl(redirectUri: string, code: string, state?: string): string {
  const url = new URL(redirectUri);
  url.searchParams.append("code", code);
  if (state !== undefined) url.searchParams.append("state", state);
  return url.toString();
}

/** The scopes of the web app's token: never wider than the app's token, narrowed to what the web client may hold. */
export const launchedScopes = (appToken: readonly string[], webClient: readonly string[]) =>
  appToken.filter((scope) => webClient.includes(scope));
