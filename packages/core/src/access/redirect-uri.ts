import type { ValidationIssue } from "../kernel/domain-error.js";

export const REDIRECT_URI_LIMITS = Object.freeze({ maxRedirectUris: 10, redirectUriMax: 2000 });

/**
 * A redirect URI an API client may register (RFC 9700 section 2.1: exact string match at use, so no wildcards): an
 * absolute https URL without a fragment, or http on a loopback address for development (RFC 8252 section 7.3).
 */
export function redirectUriIssues(uris: readonly unknown[], field = "redirectUris"): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (uris.length > REDIRECT_URI_LIMITS.maxRedirectUris)
    issues.push({ field, reason: `must hold at most ${REDIRECT_URI_LIMITS.maxRedirectUris} URIs` });
  uris.forEach((uri, i) => {
    const problem = redirectUriProblem(uri);
    if (problem) issues.push({ field: `${field}.${i}`, reason: problem, value: uri });
  });
  return issues;
}

function redirectUriProblem(uri: unknown): string | undefined {
  if (typeof uri !== "string" || uri.length === 0 || uri.length > REDIRECT_URI_LIMITS.redirectUriMax)
    return `must be a URL of 1 to ${REDIRECT_URI_LIMITS.redirectUriMax} characters`;
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
