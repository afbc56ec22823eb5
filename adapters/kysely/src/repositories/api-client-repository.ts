import {
  apiClientNameKey,
  type ApiClient,
  type ApiClientRepository,
  type ApiClientStatus,
  type PublicJwks,
} from "@openpractice/core";
import type { Kysely, Selectable } from "kysely";
import { readLatest, refusableStatement } from "../contention.js";
import { insertIgnoringDuplicateReturningId } from "../insert-ignoring-duplicate.js";
import type { ApiClientsTable } from "../tables/access.js";
import { fromDbTime, toDbTime } from "../db-time.js";
import type { Database } from "../schema.js";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";

const time = (d: Date | null) => (d ? toDbTime(d) : null);
const date = (s: string | null) => (s === null ? null : fromDbTime(s));

/** Every column but id, organisation, client id and creation time (which never change). */
const columns = (c: Omit<ApiClient, "id">) => ({
  name: c.name,
  name_key: apiClientNameKey(c.name),
  scopes: JSON.stringify(c.scopes),
  clinic_ids: JSON.stringify(c.clinicIds),
  user_id: c.userId,
  redirect_uris: JSON.stringify(c.redirectUris),
  jwks: c.jwks ? JSON.stringify(c.jwks) : null,
  jwks_uri: c.jwksUri,
  status: c.status,
  secret_hash: c.secretHash,
  previous_secret_hash: c.previousSecretHash,
  previous_secret_expires_at: time(c.previousSecretExpiresAt),
  secret_rotated_at: time(c.secretRotatedAt),
  last_token_at: time(c.lastTokenAt),
  updated_at: toDbTime(c.updatedAt),
  revoked_at: time(c.revokedAt),
});

const toClient = (r: Selectable<ApiClientsTable>): ApiClient => ({
  id: Number(r.id),
  organisationId: Number(r.organisation_id),
  clientId: r.client_id,
  name: r.name,
  scopes: JSON.parse(r.scopes) as string[],
  clinicIds: JSON.parse(r.clinic_ids) as number[],
  userId: r.user_id === null ? null : Number(r.user_id),
  redirectUris: r.redirect_uris === null ? [] : (JSON.parse(r.redirect_uris) as string[]),
  jwks: r.jwks === null ? null : (JSON.parse(r.jwks) as PublicJwks),
  jwksUri: r.jwks_uri,
  status: r.status as ApiClientStatus,
  secretHash: r.secret_hash,
  previousSecretHash: r.previous_secret_hash,
  previousSecretExpiresAt: date(r.previous_secret_expires_at),
  secretRotatedAt: date(r.secret_rotated_at),
  lastTokenAt: date(r.last_token_at),
  createdAt: fromDbTime(r.created_at),
  updatedAt: fromDbTime(r.updated_at),
  revokedAt: date(r.revoked_at),
});

export class KyselyApiClientRepository implements ApiClientRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly profile: SqlDialectProfile,
  ) {}

  /** The client holding the name, as last committed. */
  private async holderOfName(organisationId: number, name: string, exceptId?: number) {
    let q = this.db
      .selectFrom("api_clients")
      .select("id")
      .where("organisation_id", "=", organisationId)
      .where("name_key", "=", apiClientNameKey(name));
    if (exceptId !== undefined) q = q.where("id", "<>", exceptId);
    const row = await readLatest(this.profile, q).executeTakeFirst();
    return row ? Number(row.id) : undefined;
  }

  async insert(client: Omit<ApiClient, "id">) {
    const values = {
      organisation_id: client.organisationId,
      client_id: client.clientId,
      created_at: toDbTime(client.createdAt),
      ...columns(client),
    };
    const id = await insertIgnoringDuplicateReturningId(this.db, this.profile, "api_clients", values, [
      "organisation_id",
      "name_key",
    ]);
    if (id === undefined) {
      const existing = await this.holderOfName(client.organisationId, client.name);
      if (existing === undefined) throw new Error("api_clients: name holder missing right after a refused insert");
      return { created: false as const, existingId: existing };
    }
    return { created: true as const, client: { ...client, id } };
  }

  async update(client: ApiClient) {
    const existing = await this.holderOfName(client.organisationId, client.name, client.id);
    if (existing !== undefined) return { updated: false as const, existingId: existing };
    try {
      await refusableStatement(this.db, this.profile, () =>
        this.db
          .updateTable("api_clients")
          .set(columns(client))
          .where("organisation_id", "=", client.organisationId)
          .where("id", "=", client.id)
          .execute(),
      );
    } catch (error) {
      if (!this.profile.isUniqueViolation(error)) throw error;
      return {
        updated: false as const,
        existingId: (await this.holderOfName(client.organisationId, client.name, client.id)) ?? 0,
      };
    }
    return { updated: true as const };
  }

  async findById(organisationId: number, id: number) {
    const row = await this.db
      .selectFrom("api_clients")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("id", "=", id)
      .executeTakeFirst();
    return row ? toClient(row) : undefined;
  }

  async findByClientId(clientId: string) {
    const row = await this.db
      .selectFrom("api_clients")
      .selectAll()
      .where("client_id", "=", clientId)
      .executeTakeFirst();
    return row ? toClient(row) : undefined;
  }

  async list(organisationId: number, f: { status?: ApiClientStatus | undefined; limit: number; offset: number }) {
    let q = this.db.selectFrom("api_clients").where("organisation_id", "=", organisationId);
    if (f.status !== undefined) q = q.where("status", "=", f.status);
    const [rows, counted] = await Promise.all([
      q.selectAll().orderBy("id").limit(f.limit).offset(f.offset).execute(),
      q.select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow(),
    ]);
    return { clients: rows.map(toClient), total: Number(counted.n) };
  }

  async touchLastToken(id: number, at: Date) {
    await this.db
      .updateTable("api_clients")
      .set({ last_token_at: toDbTime(at) })
      .where("id", "=", id)
      .execute();
  }
}
