import { accessError } from "./access-errors.js";
import { availableParallelism } from "node:os";
import type { Clock } from "../kernel/clock.js";
import { assertWithinCallerClinics } from "../auth/clinic-access.js";
import { isPlatformPrincipal, PLATFORM_ORGANISATION_ID, type Principal } from "../auth/principal.js";
import { DomainError, type ValidationIssue } from "../kernel/domain-error.js";
import { noteAuditedResource } from "../audit/audit-scope.js";
import { ensureOrganisation } from "../organisations/ensure-organisation.js";
import { toPageWindow } from "../kernel/paging.js";
import type { Storage } from "../kernel/storage.js";
import type { AccessServiceRepositories } from "./access-service-repositories.js";
import {
  API_CLIENT_LIMITS,
  assertValidApiClient,
  parseScopeParameter,
  type ApiClient,
  type ApiClientChanges,
  type ApiClientDraft,
  type ApiClientStatus,
} from "./api-client.js";
import { ClientAuthThrottle } from "./client-auth-throttle.js";
import { storedJwks } from "./client-jwks.js";
import { hashClientSecret, newClientId, newClientSecret, verifyClientSecret } from "./client-secret.js";
import { ConcurrencyLimit, type ConcurrencyLimitStats } from "./concurrency-limit.js";

const notFound = (id: unknown) => accessError("API_CLIENT_NOT_FOUND", "API client not found", { api_client_id: id });
const duplicateName = (existingId: number) =>
  accessError("DUPLICATE_API_CLIENT", "The organisation already has an API client with this name", {
    existing_api_client_id: existingId,
  });
const API_CLIENTS = "API clients";
const invalidClient = (reason: string) => accessError("INVALID_CLIENT", "Client authentication failed", { reason });

/** A client with the secret it was just given: the only time the secret is seen. */
export interface IssuedClientSecret {
  client: ApiClient;
  secret: string;
}

/** The longest a client assertion may live (SMART Backend Services: exp no more than five minutes ahead). */
export const CLIENT_ASSERTION_MAX_SECONDS = 300;
/** Clock difference forgiven between the client and the server. */
export const CLIENT_ASSERTION_LEEWAY_SECONDS = 5;

/** The keys after a change: setting one kind clears the other, null clears it. */
function keysAfter(current: ApiClient, changes: ApiClientChanges): Pick<ApiClient, "jwks" | "jwksUri"> {
  if (changes.jwks) return { jwks: storedJwks(changes.jwks), jwksUri: null };
  if (changes.jwksUri) return { jwks: null, jwksUri: changes.jwksUri };
  return {
    jwks: changes.jwks === null ? null : current.jwks,
    jwksUri: changes.jwksUri === null ? null : current.jwksUri,
  };
}

/** Compared against when the client id is unknown, so the answer takes as long as for a known one. */
let decoyHash: Promise<string> | undefined;

/**
 * scrypt computations one instance runs at once: half the cores (at least one). Each takes tens of milliseconds
 * of a core and 32 MiB, on libuv's thread pool (four threads); without a cap a burst of token requests fills the
 * pool and the cores, and every other request waits behind it.
 */
export const CLIENT_SECRET_CONCURRENCY = Math.max(1, Math.floor(availableParallelism() / 2));

/** API clients of an organisation (POST /v2/api-clients) and the client authentication of POST /oauth/token. */
export class ApiClientService {
  private readonly throttle: ClientAuthThrottle;
  /** Every scrypt computation of the instance (hashing a new secret, checking one) takes a place here. */
  private readonly scrypt = new ConcurrencyLimit(CLIENT_SECRET_CONCURRENCY);

  constructor(private readonly deps: { storage: Storage<AccessServiceRepositories>; clock: Clock }) {
    this.throttle = new ClientAuthThrottle(deps);
  }

  /** The scrypt computations of this instance: started so far, running and waiting now (for metrics and tests). */
  secretHashingStats(): ConcurrencyLimitStats {
    return this.scrypt.stats();
  }

  /** How many scrypt computations this instance runs at once. */
  get secretHashingLimit(): number {
    return this.scrypt.limit;
  }

  private hash(secret: string): Promise<string> {
    return this.scrypt.run(() => hashClientSecret(secret));
  }

  private verify(secret: string, stored: string): Promise<boolean> {
    return this.scrypt.run(() => verifyClientSecret(secret, stored));
  }

  /**
   * A new client of the principal's organisation. A principal restricted to clinics can only create clients
   * restricted to (some of) the same clinics.
   */
  async create(principal: Principal, draft: ApiClientDraft): Promise<IssuedClientSecret> {
    assertValidApiClient(draft, true);
    assertWithinCallerClinics(principal, draft.clinicIds ?? [], API_CLIENTS);
    return this.createFor(principal.organisationId, draft, false);
  }

  /** A client of the organisation without a caller (the `org create` command's first admin client). */
  createForOrganisation(organisationId: number, draft: ApiClientDraft): Promise<IssuedClientSecret> {
    assertValidApiClient(draft, true);
    return this.createFor(organisationId, draft, false);
  }

  /** A platform client (scope platform:admin only), for vendors who host many organisations. */
  createPlatformClient(name: string): Promise<IssuedClientSecret> {
    const draft = { name, scopes: ["platform:admin"] };
    assertValidApiClient(draft, true, true);
    return this.createFor(PLATFORM_ORGANISATION_ID, draft, true);
  }

  private async createFor(organisationId: number, draft: ApiClientDraft, platform: boolean) {
    const secret = newClientSecret();
    const secretHash = await this.hash(secret);
    const now = this.deps.clock.now();
    return this.deps.storage.transaction(async (tx) => {
      const clinicIds = inIdOrder(draft.clinicIds ?? []);
      if (!platform) {
        await ensureOrganisation(tx, organisationId, now);
        await assertClinicsExist(tx, organisationId, clinicIds);
      }
      const result = await tx.apiClients.insert({
        organisationId,
        clientId: newClientId(),
        name: draft.name.trim(),
        scopes: parseScopeParameter(draft.scopes.join(" ")),
        clinicIds,
        userId: draft.userId ?? null,
        redirectUris: [...new Set(draft.redirectUris ?? [])],
        jwks: draft.jwks ? storedJwks(draft.jwks) : null,
        jwksUri: draft.jwksUri ?? null,
        status: "active",
        secretHash,
        previousSecretHash: null,
        previousSecretExpiresAt: null,
        secretRotatedAt: null,
        lastTokenAt: null,
        createdAt: now,
        updatedAt: now,
        revokedAt: null,
      });
      if (!result.created) throw duplicateName(result.existingId);
      noteAuditedResource(result.client.id);
      return { client: result.client, secret };
    });
  }

  async get(principal: Principal, id: number): Promise<ApiClient> {
    const found = await this.deps.storage.repositories.apiClients.findById(principal.organisationId, id);
    if (!found) throw notFound(id);
    return found;
  }

  async list(
    principal: Principal,
    query: { status?: ApiClientStatus | "all" | undefined; page?: number | undefined; perPage?: number | undefined },
  ): Promise<{ clients: ApiClient[]; total: number; page: number; perPage: number }> {
    const { page, size, limit, offset } = toPageWindow(query.page, query.perPage, {
      defaultSize: API_CLIENT_LIMITS.defaultPerPage,
      maxSize: API_CLIENT_LIMITS.maxPerPage,
    });
    const status = query.status ?? "active";
    const found = await this.deps.storage.repositories.apiClients.list(principal.organisationId, {
      status: status === "all" ? undefined : status,
      limit,
      offset,
    });
    return { ...found, page, perPage: size };
  }

  /** Name, scopes, clinics, user id, redirect URIs and keys; omitted fields keep their values. Tokens already issued keep their claims. */
  async update(principal: Principal, id: number, changes: ApiClientChanges): Promise<ApiClient> {
    assertValidApiClient(changes, false, isPlatformPrincipal(principal));
    if (changes.clinicIds !== undefined) assertWithinCallerClinics(principal, changes.clinicIds, API_CLIENTS);
    return this.change(principal, id, async (current, now, tx) => {
      if (current.status === "revoked")
        throw DomainError.validation([
          { field: "status", reason: "a revoked client cannot be changed", value: "revoked" },
        ]);
      const clinicIds = changes.clinicIds ? inIdOrder(changes.clinicIds) : current.clinicIds;
      if (changes.clinicIds) await assertClinicsExist(tx, principal.organisationId, clinicIds);
      return {
        ...current,
        name: changes.name?.trim() ?? current.name,
        scopes: changes.scopes ? parseScopeParameter(changes.scopes.join(" ")) : current.scopes,
        clinicIds,
        userId: changes.userId === undefined ? current.userId : changes.userId,
        redirectUris: changes.redirectUris ? [...new Set(changes.redirectUris)] : current.redirectUris,
        ...keysAfter(current, changes),
        updatedAt: now,
      };
    });
  }

  /** DELETE: the client can no longer obtain tokens (those issued live out their short lifetime). Repeating it changes nothing. */
  revoke(principal: Principal, id: number): Promise<ApiClient> {
    return this.change(principal, id, async (current, now) =>
      current.status === "revoked"
        ? current
        : {
            ...current,
            status: "revoked",
            revokedAt: now,
            previousSecretHash: null,
            previousSecretExpiresAt: null,
            updatedAt: now,
          },
    );
  }

  /**
   * A new secret; the current one keeps working for `gracePeriodSeconds` (default 24 hours, 0: stops at once), so
   * the software can be redeployed without downtime. A secret rotated out before is dropped.
   */
  async rotateSecret(
    principal: Principal,
    id: number,
    options: { gracePeriodSeconds?: number | undefined } = {},
  ): Promise<IssuedClientSecret> {
    const grace = options.gracePeriodSeconds ?? API_CLIENT_LIMITS.defaultGraceSeconds;
    if (!Number.isSafeInteger(grace) || grace < 0 || grace > API_CLIENT_LIMITS.maxGraceSeconds)
      throw DomainError.validation([
        {
          field: "gracePeriodSeconds",
          reason: `must be an integer from 0 to ${API_CLIENT_LIMITS.maxGraceSeconds}`,
          value: options.gracePeriodSeconds,
        },
      ]);
    const secret = newClientSecret();
    const secretHash = await this.hash(secret);
    const client = await this.change(principal, id, async (current, now) => {
      if (current.status === "revoked")
        throw DomainError.validation([
          { field: "status", reason: "a revoked client has no secret to rotate", value: "revoked" },
        ]);
      return {
        ...current,
        secretHash,
        previousSecretHash: grace > 0 ? current.secretHash : null,
        previousSecretExpiresAt: grace > 0 ? new Date(now.getTime() + grace * 1000) : null,
        secretRotatedAt: now,
        updatedAt: now,
      };
    });
    return { client, secret };
  }

  /**
   * Client authentication at the token endpoint: the active client whose current secret (or previous one, within
   * its grace period) matches. Each attempt is counted as a failure per client id and per address before the
   * secret is checked, and taken back when it matched; failures answer INVALID_CLIENT, and over the limit
   * CLIENT_AUTH_THROTTLED comes without checking the secret.
   */
  async authenticate(clientId: string, secret: string, address?: string): Promise<ApiClient> {
    const attempt = await this.throttle.reserve(clientId, address);
    let failed = true;
    try {
      const client = await this.deps.storage.repositories.apiClients.findByClientId(clientId);
      const now = this.deps.clock.now();
      const matches = client
        ? (await this.verify(secret, client.secretHash)) ||
          (client.previousSecretHash !== null &&
            client.previousSecretExpiresAt !== null &&
            client.previousSecretExpiresAt > now &&
            (await this.verify(secret, client.previousSecretHash)))
        : await this.verify(secret, await (decoyHash ??= this.hash(newClientSecret()))).then(() => false);
      if (!client || !matches) throw invalidClient("unknown client or wrong secret");
      if (client.status === "revoked") throw invalidClient("the client is revoked");
      // The secret was right: not a guess, whatever follows.
      failed = false;
      if (client.organisationId !== PLATFORM_ORGANISATION_ID) {
        const org = await this.deps.storage.repositories.organisations.findById(client.organisationId);
        if (org?.deactivatedAt) throw invalidClient("the client's organisation is deactivated");
      }
      return client;
    } finally {
      await attempt.settle(failed);
    }
  }

  /**
   * Client authentication by a signed assertion (RFC 7523 `private_key_jwt`, SMART Backend Services): the client
   * `clientId` names must be active, of an active organisation, with registered keys; `verify` checks the JWT's
   * signature against them and its claims (packages/http does it with jose) and answers its `jti` and expiry. The
   * expiry must be ahead and at most five minutes away, and a `jti` is accepted once. Throttled like secrets: a
   * failure counts against the client id and the address.
   */
  async authenticateAssertion(
    clientId: string,
    verify: (client: ApiClient) => Promise<{ jti: string; expiresAt: Date }>,
    address?: string,
  ): Promise<ApiClient> {
    const attempt = await this.throttle.reserve(clientId, address);
    let failed = true;
    try {
      const r = this.deps.storage.repositories;
      const client = await r.apiClients.findByClientId(clientId);
      if (!client) throw invalidClient("unknown client");
      if (client.status === "revoked") throw invalidClient("the client is revoked");
      if (!client.jwks && !client.jwksUri) throw invalidClient("the client has registered no keys (jwks or jwks_uri)");
      const { jti, expiresAt } = await verify(client).catch((error: unknown) => {
        throw invalidClient(`the client assertion is not valid: ${(error as Error).message}`);
      });
      const now = this.deps.clock.now();
      const seconds = (expiresAt.getTime() - now.getTime()) / 1000;
      if (!(seconds > 0)) throw invalidClient("the client assertion has expired");
      if (seconds > CLIENT_ASSERTION_MAX_SECONDS + CLIENT_ASSERTION_LEEWAY_SECONDS)
        throw invalidClient(`the client assertion's exp must be at most ${CLIENT_ASSERTION_MAX_SECONDS} seconds ahead`);
      if (typeof jti !== "string" || jti.length === 0 || jti.length > 255)
        throw invalidClient("the client assertion needs a jti of 1 to 255 characters");
      if (client.organisationId !== PLATFORM_ORGANISATION_ID) {
        const org = await r.organisations.findById(client.organisationId);
        if (org?.deactivatedAt) throw invalidClient("the client's organisation is deactivated");
      }
      if (!(await r.clientAssertions.record(client.clientId, jti, expiresAt)))
        throw invalidClient("the client assertion was used before (jti replayed)");
      failed = false;
      return client;
    } finally {
      await attempt.settle(failed);
    }
  }

  /** Forgets accepted assertions once expired (a replay of one is refused by its exp then). */
  purgeExpiredAssertions(): Promise<number> {
    return this.deps.storage.repositories.clientAssertions.purgeExpired(this.deps.clock.now());
  }

  /**
   * The scopes a token for the client carries: all of the client's without a requested scope, else the requested
   * ones, each of which the client must hold (RFC 6749 section 3.3). Records the time of the grant.
   */
  async grant(client: ApiClient, requestedScope: string | undefined): Promise<string[]> {
    const requested = requestedScope === undefined ? client.scopes : parseScopeParameter(requestedScope);
    const refused = requested.filter((s) => !client.scopes.includes(s));
    if (requested.length === 0 || refused.length > 0)
      throw accessError(
        "INVALID_SCOPE",
        refused.length > 0 ? `The client may not request: ${refused.join(" ")}` : "The scope parameter names no scope",
        { refused_scopes: refused },
      );
    await this.deps.storage.repositories.apiClients.touchLastToken(client.id, this.deps.clock.now());
    return requested;
  }

  private async change(
    principal: Principal,
    id: number,
    next: (current: ApiClient, now: Date, tx: AccessServiceRepositories) => Promise<ApiClient>,
  ): Promise<ApiClient> {
    const now = this.deps.clock.now();
    return this.deps.storage.transaction(async (tx) => {
      const current = await tx.apiClients.findById(principal.organisationId, id);
      if (!current) throw notFound(id);
      // Changing, rotating or revoking a client wider than the caller would let it act beyond its clinics.
      assertWithinCallerClinics(principal, current.clinicIds, API_CLIENTS);
      const updated = await next(current, now, tx);
      if (updated === current) return current;
      const result = await tx.apiClients.update(updated);
      if (!result.updated) throw duplicateName(result.existingId);
      return updated;
    });
  }
}

const inIdOrder = (ids: readonly number[]) => [...new Set(ids)].sort((a, b) => a - b);

async function assertClinicsExist(tx: AccessServiceRepositories, organisationId: number, clinicIds: readonly number[]) {
  const issues: ValidationIssue[] = [];
  for (const [i, id] of clinicIds.entries())
    if (!(await tx.organisations.findClinic(organisationId, id)))
      issues.push({ field: `clinicIds.${i}`, reason: "names no clinic of the organisation", value: id });
  if (issues.length > 0) throw DomainError.validation(issues);
}
