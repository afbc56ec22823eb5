import { jwksIssues, jwksUriIssues, type PublicJwks } from "./client-jwks.js";
import { DomainError, type ValidationIssue } from "../kernel/domain-error.js";
import type { Patch } from "../kernel/patch.js";
import { PLATFORM_SCOPE } from "../auth/principal.js";
import { redirectUriIssues } from "./redirect-uri.js";

export const API_CLIENT_STATUSES = ["active", "revoked"] as const;
export type ApiClientStatus = (typeof API_CLIENT_STATUSES)[number];

export const API_CLIENT_LIMITS = Object.freeze({
  nameMax: 100,
  maxScopes: 50,
  scopeMax: 64,
  maxClinics: 200,
  defaultPerPage: 20,
  maxPerPage: 100,
  /** How long a rotated-out secret keeps working by default: 24 hours (as Stripe's default roll). */
  defaultGraceSeconds: 24 * 3600,
  /** The longest grace period: 7 days. */
  maxGraceSeconds: 7 * 24 * 3600,
});

/**
 * A credential for software (a vendor's integration, the front desk app) to obtain tokens at POST /oauth/token
 * with the client credentials grant. The secret is stored only as its scrypt hash; after a rotation the previous
 * hash keeps working until `previousSecretExpiresAt`.
 */
export interface ApiClient {
  id: number;
  /** 0 for platform clients (scope platform:admin, created with `openpractice platform-client create`). */
  organisationId: number;
  /** The public identifier sent at the token endpoint ("opc_…"). */
  clientId: string;
  name: string;
  /** The scopes the client may request; a token carries these or fewer. */
  scopes: string[];
  /** When not empty, tokens carry this clinic restriction (claim clinic_id_list). */
  clinicIds: number[];
  /** The user id its tokens carry (claim user_id), e.g. the staff member or provider the software acts for; null: none. */
  userId: number | null;
  /**
   * Where single sign-on may send a launch code (docs/sso.md): exact URLs, https or loopback http. Empty: the
   * client is no web app a launch can open.
   */
  redirectUris: string[];
  /**
   * The public keys the client signs its token requests' assertions with (SMART Backend Services, `private_key_jwt`;
   * docs/authentication.md), given inline; null: none. At most one of `jwks` and `jwksUri` is set.
   */
  jwks: PublicJwks | null;
  /** Where the server fetches the client's public keys from; null: none. */
  jwksUri: string | null;
  status: ApiClientStatus;
  secretHash: string;
  previousSecretHash: string | null;
  previousSecretExpiresAt: Date | null;
  secretRotatedAt: Date | null;
  lastTokenAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  revokedAt: Date | null;
}

export interface ApiClientDraft {
  name: string;
  scopes: readonly string[];
  clinicIds?: readonly number[] | undefined;
  userId?: number | null | undefined;
  redirectUris?: readonly string[] | undefined;
  jwks?: PublicJwks | null | undefined;
  jwksUri?: string | null | undefined;
}

export type ApiClientChanges = Patch<ApiClientDraft>;

/** RFC 6749 section 3.3 scope-token: printable ASCII but space, `"` and `\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/** Splits an RFC 6749 scope parameter (space-delimited); duplicates collapse. */
export const parseScopeParameter = (scope: string) => [...new Set(scope.split(" ").filter(Boolean))];

/** Checks a draft (all required fields when creating) and returns the issues, field names in domain form. */
export function apiClientIssues(input: ApiClientChanges, creating: boolean, platform: boolean): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (input.name !== undefined || creating) {
    const name = typeof input.name === "string" ? input.name.trim() : "";
    if (name === "" || name.length > API_CLIENT_LIMITS.nameMax)
      issues.push({ field: "name", reason: `must be 1 to ${API_CLIENT_LIMITS.nameMax} characters`, value: input.name });
  }
  if (input.scopes !== undefined || creating) {
    const scopes = input.scopes ?? [];
    if (scopes.length === 0 || scopes.length > API_CLIENT_LIMITS.maxScopes)
      issues.push({ field: "scopes", reason: `must hold 1 to ${API_CLIENT_LIMITS.maxScopes} scopes` });
    scopes.forEach((scope, i) => {
      if (typeof scope !== "string" || !SCOPE_TOKEN.test(scope) || scope.length > API_CLIENT_LIMITS.scopeMax)
        issues.push({ field: `scopes.${i}`, reason: "is not a scope token (RFC 6749 section 3.3)", value: scope });
      else if ((scope === PLATFORM_SCOPE) !== platform)
        issues.push({
          field: `scopes.${i}`,
          reason: platform
            ? "platform clients hold platform:admin only"
            : "platform:admin is never granted to an organisation's client",
          value: scope,
        });
    });
  }
  const clinics = input.clinicIds ?? [];
  if (clinics.length > API_CLIENT_LIMITS.maxClinics)
    issues.push({ field: "clinicIds", reason: `may name at most ${API_CLIENT_LIMITS.maxClinics} clinics` });
  if (input.userId !== undefined && input.userId !== null && !(Number.isSafeInteger(input.userId) && input.userId > 0))
    issues.push({ field: "userId", reason: "must be a positive integer or null", value: input.userId });
  if (input.redirectUris !== undefined && !Array.isArray(input.redirectUris))
    issues.push({ field: "redirectUris", reason: "must be a list of URLs" });
  else if (input.redirectUris !== undefined) {
    if (platform && input.redirectUris.length > 0)
      issues.push({ field: "redirectUris", reason: "platform clients take no redirect URIs" });
    issues.push(...redirectUriIssues(input.redirectUris));
  }
  for (const [field, given] of [
    ["jwks", input.jwks],
    ["jwksUri", input.jwksUri],
  ] as const)
    if (platform && given !== undefined && given !== null)
      issues.push({ field, reason: "platform clients authenticate with their secret only" });
  if (input.jwks !== undefined) issues.push(...jwksIssues(input.jwks));
  if (input.jwksUri !== undefined) issues.push(...jwksUriIssues(input.jwksUri));
  if (input.jwks && input.jwksUri)
    issues.push({ field: "jwksUri", reason: "give the keys inline (jwks) or their URL (jwksUri), not both" });
  return issues;
}

export function assertValidApiClient(input: ApiClientChanges, creating: boolean, platform = false): void {
  const issues = apiClientIssues(input, creating, platform);
  if (issues.length > 0) throw DomainError.validation(issues);
}

/** The key name uniqueness is checked on: case-insensitive, outer spaces ignored. */
export const apiClientNameKey = (name: string) => name.trim().toLowerCase();
