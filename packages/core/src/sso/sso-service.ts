import { randomUUID } from "node:crypto";
import type { ApiClient } from "../access/api-client.js";
import type { AuditEvent } from "../audit/audit-event.js";
import { noteAuditedResource } from "../audit/audit-scope.js";
import type { Principal } from "../auth/principal.js";
import type { Clock } from "../kernel/clock.js";
import type { DomainError } from "../kernel/domain-error.js";
import type { Storage } from "../kernel/storage.js";
import { ssoError } from "./sso-errors.js";
import type { SsoGrant } from "./sso-grant.js";
import {
  isS256Challenge,
  launchCodeHash,
  launchedScopes,
  launchUrl,
  newLaunchCode,
  SSO_LIMITS,
  verifierMatches,
} from "./sso-launch.js";
import type { SsoServiceRepositories } from "./sso-service-repositories.js";

/** A launch request as the mobile app sends it (names of RFC 6749 4.1.1 and RFC 7636 4.3). */
export interface SsoLaunchInput {
  clientId?: unknown;
  redirectUri?: unknown;
  codeChallenge?: unknown;
  codeChallengeMethod?: unknown;
  state?: unknown;
}

/** A code exchange as the web app sends it to the token endpoint (RFC 6749 4.1.3, RFC 7636 4.5). */
export interface SsoExchangeInput {
  code?: string | null | undefined;
  redirectUri?: string | null | undefined;
  codeVerifier?: string | null | undefined;
}

/** What the token issued for a redeemed code carries. */
export interface SsoIssuedToken {
  tokenId: string;
  lifetimeSeconds: number;
  organisationId: number;
  userId: number;
  name: string | null;
  /** The web app's client id. */
  clientId: string;
  scopes: string[];
  clinicIds: number[];
}

const refused = (error: "invalid_request" | "invalid_scope", field: string, reason: string) =>
  ssoError("SSO_LAUNCH_REFUSED", `${field} ${reason}`, { error, field });
const invalidGrant = (reason: string) => ssoError("INVALID_GRANT", reason, { error: "invalid_grant" });
const missing = (parameter: string) =>
  ssoError("INVALID_GRANT", `${parameter} is required`, { error: "invalid_request", parameter });

const PRINTABLE = /^[\x20-\x7e]*$/;

type AuditRow = Omit<AuditEvent, "id">;

/** The clinic restriction of the web app's token: the app token's, narrowed by the web client's own (empty: none). */
function launchedClinics(app: readonly number[], client: readonly number[]): number[] | undefined {
  if (app.length === 0) return [...client];
  if (client.length === 0) return [...app];
  const common = app.filter((id) => client.includes(id));
  return common.length > 0 ? common : undefined;
}

/**
 * App-to-web single sign-on (docs/sso.md): the mobile app, holding a user's token, launches the organisation's web
 * app with a one-time code (`launch`); the web app exchanges it at the token endpoint (`exchange`) for a
 * short-lived token of the same user, never wider than the app's. A code presented twice revokes what it gave.
 */
export class SsoService {
  /** Tokens this process saw revoked: a revocation is for good, so it is never looked up again. */
  private readonly revoked = new Set<string>();

  constructor(private readonly deps: { storage: Storage<SsoServiceRepositories>; clock: Clock }) {}

  /**
   * A launch URL of the web app for the principal's user: the registered redirect URI with a code valid 60
   * seconds, bound to the user, the web app's client and the PKCE challenge. `issuer` (this server's public URL)
   * is added as `iss` (RFC 9207). Nothing is stored when the launch is refused.
   */
  async launch(
    principal: Principal,
    input: SsoLaunchInput,
    issuer?: string,
  ): Promise<{ url: string; expiresInSeconds: number; client: ApiClient }> {
    if (principal.userId === null)
      throw refused("invalid_request", "authorization", "must be a token of a user (claim user_id)");
    if (principal.ssoTokenId)
      throw refused("invalid_request", "authorization", "must not be a token issued by single sign-on itself");
    const { clientId, redirectUri, codeChallenge, codeChallengeMethod, state } = input;
    if (typeof clientId !== "string" || clientId === "" || clientId.length > 100)
      throw refused("invalid_request", "client_id", "must be the web app's client id");
    if (typeof redirectUri !== "string" || redirectUri === "")
      throw refused("invalid_request", "redirect_uri", "is required");
    if (codeChallengeMethod !== "S256") throw refused("invalid_request", "code_challenge_method", "must be S256");
    if (typeof codeChallenge !== "string" || !isS256Challenge(codeChallenge))
      throw refused("invalid_request", "code_challenge", "must be 43 base64url characters (RFC 7636 S256)");
    if (
      state !== undefined &&
      (typeof state !== "string" || state.length > SSO_LIMITS.stateMax || !PRINTABLE.test(state))
    )
      throw refused("invalid_request", "state", `must be printable ASCII of at most ${SSO_LIMITS.stateMax} characters`);

    const repositories = this.deps.storage.repositories;
    const client = await repositories.apiClients.findByClientId(clientId);
    // Another organisation's client reads as unknown: a launch never learns what other organisations hold.
    if (!client || client.organisationId !== principal.organisationId || client.status !== "active")
      throw refused("invalid_request", "client_id", "names no active API client of the organisation");
    if (!client.redirectUris.includes(redirectUri))
      throw refused("invalid_request", "redirect_uri", "is not one the client registered (exact match)");
    const scopes = launchedScopes(principal.scopes, client.scopes);
    if (scopes.length === 0)
      throw refused("invalid_scope", "scope", "the app token and the web client have no scope in common");
    const clinicIds = launchedClinics(principal.clinicIds, client.clinicIds);
    if (!clinicIds)
      throw refused("invalid_request", "client_id", "the app token and the web client have no clinic in common");

    const now = this.deps.clock.now();
    if (principal.tokenExpiresAt && principal.tokenExpiresAt <= now)
      throw refused("invalid_request", "authorization", "has expired");
    const { code, codeHash } = newLaunchCode();
    const expiresAt = new Date(now.getTime() + SSO_LIMITS.codeLifetimeMs);
    const grant: SsoGrant = {
      codeHash,
      organisationId: principal.organisationId,
      userId: principal.userId,
      // The audit trail keeps 200 characters of a name; so does the launch (a token's claim has no bound).
      userName: principal.name?.slice(0, 200) ?? null,
      launchedByClientId: principal.clientId ?? null,
      clientId: client.clientId,
      redirectUri,
      codeChallenge,
      scopes,
      clinicIds,
      notAfter: principal.tokenExpiresAt ?? null,
      createdAt: now,
      expiresAt,
      usedAt: null,
      tokenId: null,
      tokenExpiresAt: null,
      revokedAt: null,
    };
    await this.deps.storage.transaction(async (tx) => {
      await tx.ssoGrants.insert(grant);
      noteAuditedResource(client.id);
    });
    return {
      url: launchUrl(redirectUri, code, state as string | undefined, issuer),
      expiresInSeconds: SSO_LIMITS.codeLifetimeMs / 1000,
      client,
    };
  }

  /**
   * The token a code is exchanged for, by the authenticated web app's client (RFC 6749 4.1.3): the code must be
   * its own, unexpired and unused, with the same redirect URI and the verifier of its challenge. A code used
   * before is refused and the token issued from it revoked (RFC 6749 10.5), whatever else the request holds.
   * Every exchange of a code the server knows is audited, refused ones included.
   */
  async exchange(client: ApiClient, input: SsoExchangeInput, requestId: string | null): Promise<SsoIssuedToken> {
    if (!input.code) throw missing("code");
    const codeHash = launchCodeHash(input.code);
    const grants = this.deps.storage.repositories.ssoGrants;
    const grant = await grants.findByCodeHash(codeHash);
    if (!grant) throw invalidGrant("the code is unknown or expired");
    const trail = await this.trailOf(grant, client, requestId);
    if (grant.usedAt) return this.refuseReplay(grant, trail);
    const now = this.deps.clock.now();
    const refuse = async (error: DomainError, reason: string): Promise<never> => {
      await this.deps.storage.transaction((tx) => tx.audit.append([trail("ssoExchangeRefused", [reason])]));
      throw error;
    };
    if (!input.redirectUri) return refuse(missing("redirect_uri"), "redirect_uri");
    if (!input.codeVerifier) return refuse(missing("code_verifier"), "code_verifier");
    if (grant.clientId !== client.clientId)
      return refuse(invalidGrant("the code was issued to another client"), "client_id");
    if (grant.expiresAt <= now) return refuse(invalidGrant("the code has expired"), "expired");
    if (grant.redirectUri !== input.redirectUri)
      return refuse(invalidGrant("redirect_uri differs from the launch's (exact match)"), "redirect_uri");
    if (!verifierMatches(input.codeVerifier, grant.codeChallenge))
      return refuse(invalidGrant("code_verifier does not match the launch's code_challenge"), "code_verifier");
    // The client may have lost scopes or clinics since the launch: the token never carries more than it holds now,
    // nor lives past the launching token.
    const scopes = launchedScopes(grant.scopes, client.scopes);
    const clinicIds = launchedClinics(grant.clinicIds, client.clinicIds);
    if (scopes.length === 0 || !clinicIds)
      return refuse(invalidGrant("the client no longer holds what the launch granted"), "scope");
    const left = grant.notAfter ? Math.floor((grant.notAfter.getTime() - now.getTime()) / 1000) : Infinity;
    const lifetimeSeconds = Math.min(SSO_LIMITS.tokenLifetimeSeconds, left);
    if (lifetimeSeconds < 1) return refuse(invalidGrant("the token that launched the code has expired"), "expired");

    const token = { id: randomUUID(), expiresAt: new Date(now.getTime() + lifetimeSeconds * 1000) };
    const redeemed = await this.deps.storage.transaction(async (tx) => {
      if (!(await tx.ssoGrants.redeem(codeHash, token, now))) return false;
      await tx.audit.append([trail("ssoExchange", ["token"])]);
      return true;
    });
    if (!redeemed) {
      // Redeemed by a concurrent exchange between the read and now: this one is the replay.
      const current = await grants.findByCodeHash(codeHash);
      if (current?.usedAt) return this.refuseReplay(current, trail);
      return refuse(invalidGrant("the code has expired"), "expired");
    }
    return {
      tokenId: token.id,
      lifetimeSeconds,
      organisationId: grant.organisationId,
      userId: grant.userId,
      name: grant.userName,
      clientId: client.clientId,
      scopes,
      clinicIds,
    };
  }

  /**
   * The audit entries of an exchange, in the grant's organisation: the launching user as actor, the web app's
   * client as resource, and the presenting client when it is of the same organisation (another organisation's is
   * never written into this one's trail).
   */
  private async trailOf(grant: SsoGrant, presenting: ApiClient, requestId: string | null) {
    const web =
      presenting.clientId === grant.clientId
        ? presenting
        : await this.deps.storage.repositories.apiClients.findByClientId(grant.clientId);
    const now = this.deps.clock.now();
    return (action: string, changedFields: string[]): AuditRow => ({
      organisationId: grant.organisationId,
      occurredAt: now,
      actorUserId: grant.userId,
      actorName: grant.userName,
      clientId: presenting.organisationId === grant.organisationId ? presenting.clientId : null,
      action,
      resourceType: "api_client",
      resourceId: web ? String(web.id) : null,
      requestId,
      changedFields,
    });
  }

  /** Revokes the token the code gave, records the replay, and refuses. */
  private async refuseReplay(grant: SsoGrant, trail: (action: string, fields: string[]) => AuditRow): Promise<never> {
    await this.deps.storage.transaction(async (tx) => {
      await tx.ssoGrants.revoke(grant.codeHash, this.deps.clock.now());
      await tx.audit.append([trail("ssoCodeReplayed", ["revoked"])]);
    });
    if (grant.tokenId) this.revoked.add(grant.tokenId);
    throw invalidGrant("the code was already used; the token issued from it is revoked");
  }

  /** Whether the principal's token came from a code presented again since (tokens of single sign-on only). */
  async isRevoked(principal: Principal): Promise<boolean> {
    const id = principal.ssoTokenId;
    if (!id) return false;
    if (this.revoked.has(id)) return true;
    if (!(await this.deps.storage.repositories.ssoGrants.isTokenRevoked(id))) return false;
    if (this.revoked.size > 10_000) this.revoked.clear();
    this.revoked.add(id);
    return true;
  }

  /** Deletes launch records kept past use (a day after their code expired); their tokens are long expired. */
  purgeExpired(): Promise<number> {
    return this.deps.storage.repositories.ssoGrants.purgeExpired(
      new Date(this.deps.clock.now().getTime() - SSO_LIMITS.keptAfterExpiryMs),
    );
  }
}
