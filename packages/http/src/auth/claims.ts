import { DomainError, PLATFORM_ORGANISATION_ID, PLATFORM_SCOPE, type Principal } from "@openpractice/core";

const unauthorized = (reason: string) => new DomainError("UNAUTHORIZED", "Authentication required", { reason });

function positiveInteger(value: unknown): number | null {
  const n = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value;
  return typeof n === "number" && Number.isSafeInteger(n) && n > 0 ? n : null;
}

function stringList(value: unknown): string[] {
  if (typeof value === "string") return value.split(/\s+/).filter(Boolean);
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === "string");
  return [];
}

/**
 * Maps verified token claims to a principal: organisation_id (required),
 * user_id, name or user_name, organisation_name, scope (space-separated), clinic_id_list, roles.
 */
export function principalFromClaims(claims: Record<string, unknown>): Principal {
  // A platform token (claim platform: true, no organisation) acts on organisations only, with platform:admin alone.
  if (claims.platform === true && claims.organisation_id === undefined) return platformPrincipal(claims);
  const organisationId = positiveInteger(claims.organisation_id);
  if (organisationId === null) throw unauthorized("token has no valid organisation_id claim");
  const name =
    typeof claims.name === "string" ? claims.name : typeof claims.user_name === "string" ? claims.user_name : null;
  const clinicIds = Array.isArray(claims.clinic_id_list)
    ? claims.clinic_id_list.map(positiveInteger).filter((n): n is number => n !== null)
    : [];
  return Object.freeze({
    organisationId,
    userId: positiveInteger(claims.user_id),
    name,
    organisationName:
      typeof claims.organisation_name === "string" && claims.organisation_name.trim() !== ""
        ? claims.organisation_name.trim().slice(0, 200)
        : null,
    clientId: typeof claims.client_id === "string" ? claims.client_id.slice(0, 40) : null,
    // A single sign-on token is checked against revocations by its id (docs/sso.md); one without a jti is refused.
    ...(claims.sso === true ? { ssoTokenId: ssoTokenIdOf(claims.jti) } : {}),
    ...(typeof claims.exp === "number" && Number.isFinite(claims.exp)
      ? { tokenExpiresAt: new Date(claims.exp * 1000) }
      : {}),
    // Organisation tokens never carry the platform scope, whoever signed them.
    scopes: Object.freeze(stringList(claims.scope).filter((s) => s !== PLATFORM_SCOPE)),
    clinicIds: Object.freeze(clinicIds),
    roles: Object.freeze(stringList(claims.roles)),
  });
}

function ssoTokenIdOf(jti: unknown): string {
  if (typeof jti !== "string" || jti === "" || jti.length > 64)
    throw unauthorized("single sign-on token has no valid jti");
  return jti;
}

function platformPrincipal(claims: Record<string, unknown>): Principal {
  if (!stringList(claims.scope).includes(PLATFORM_SCOPE))
    throw unauthorized(`platform token has no ${PLATFORM_SCOPE} scope`);
  return Object.freeze({
    organisationId: PLATFORM_ORGANISATION_ID,
    userId: positiveInteger(claims.user_id),
    name: typeof claims.name === "string" ? claims.name : null,
    organisationName: null,
    clientId: typeof claims.client_id === "string" ? claims.client_id.slice(0, 40) : null,
    scopes: Object.freeze([PLATFORM_SCOPE]),
    clinicIds: Object.freeze([]),
    roles: Object.freeze([]),
  });
}
