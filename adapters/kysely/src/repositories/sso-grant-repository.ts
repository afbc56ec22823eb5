import type { SsoGrant, SsoGrantRepository } from "@openpractice/core";
import type { Kysely, Selectable } from "kysely";
import { fromDbTime, toDbTime } from "../db-time.js";
import type { Database } from "../schema.js";
import type { SsoGrantsTable } from "../tables/sso.js";

const date = (s: string | null) => (s === null ? null : fromDbTime(s));

const toGrant = (r: Selectable<SsoGrantsTable>): SsoGrant => ({
  codeHash: r.code_hash,
  organisationId: Number(r.organisation_id),
  userId: Number(r.user_id),
  userName: r.user_name,
  launchedByClientId: r.launched_by_client_id,
  clientId: r.client_id,
  redirectUri: r.redirect_uri,
  codeChallenge: r.code_challenge,
  scopes: JSON.parse(r.scopes) as string[],
  clinicIds: JSON.parse(r.clinic_ids) as number[],
  notAfter: date(r.not_after),
  createdAt: fromDbTime(r.created_at),
  expiresAt: fromDbTime(r.expires_at),
  usedAt: date(r.used_at),
  tokenId: r.token_id,
  tokenExpiresAt: date(r.token_expires_at),
  revokedAt: date(r.revoked_at),
});

export class KyselySsoGrantRepository implements SsoGrantRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(g: SsoGrant) {
    await this.db
      .insertInto("sso_grants")
      .values({
        code_hash: g.codeHash,
        organisation_id: g.organisationId,
        user_id: g.userId,
        user_name: g.userName,
        launched_by_client_id: g.launchedByClientId,
        client_id: g.clientId,
        redirect_uri: g.redirectUri,
        code_challenge: g.codeChallenge,
        scopes: JSON.stringify(g.scopes),
        clinic_ids: JSON.stringify(g.clinicIds),
        not_after: g.notAfter ? toDbTime(g.notAfter) : null,
        created_at: toDbTime(g.createdAt),
        expires_at: toDbTime(g.expiresAt),
        used_at: null,
        token_id: null,
        token_expires_at: null,
        revoked_at: null,
      })
      .execute();
  }

  async findByCodeHash(codeHash: string) {
    const row = await this.db.selectFrom("sso_grants").selectAll().where("code_hash", "=", codeHash).executeTakeFirst();
    return row ? toGrant(row) : undefined;
  }

  async redeem(codeHash: string, token: { id: string; expiresAt: Date }, now: Date) {
    const result = await this.db
      .updateTable("sso_grants")
      .set({ used_at: toDbTime(now), token_id: token.id, token_expires_at: toDbTime(token.expiresAt) })
      .where("code_hash", "=", codeHash)
      .where("used_at", "is", null)
      .where("expires_at", ">", toDbTime(now))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async revoke(codeHash: string, now: Date) {
    await this.db
      .updateTable("sso_grants")
      .set({ revoked_at: toDbTime(now) })
      .where("code_hash", "=", codeHash)
      .where("revoked_at", "is", null)
      .execute();
  }

  async isTokenRevoked(tokenId: string) {
    const row = await this.db
      .selectFrom("sso_grants")
      .select("revoked_at")
      .where("token_id", "=", tokenId)
      .executeTakeFirst();
    return row?.revoked_at != null;
  }

  async purgeExpired(before: Date) {
    const result = await this.db.deleteFrom("sso_grants").where("expires_at", "<", toDbTime(before)).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
