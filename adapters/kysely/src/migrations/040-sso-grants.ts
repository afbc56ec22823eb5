import type { Kysely, Migration } from "kysely";

const TIME = "varchar(30)";

/**
 * Single sign-on's launch codes (docs/sso.md), keyed by the code's SHA-256 (the code itself is never stored). A
 * redeemed code keeps the id of the token it gave (token_id, indexed: the authenticator asks whether a token was
 * revoked) for a day after it expired; the purge walks expires_at.
 */
export function ssoGrantsMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("sso_grants")
        .addColumn("code_hash", "varchar(64)", (c) => c.primaryKey())
        .addColumn("organisation_id", "bigint", (c) => c.notNull().references("organisations.id"))
        .addColumn("user_id", "bigint", (c) => c.notNull())
        .addColumn("user_name", "varchar(200)")
        .addColumn("launched_by_client_id", "varchar(100)")
        .addColumn("client_id", "varchar(100)", (c) => c.notNull())
        .addColumn("redirect_uri", "varchar(2000)", (c) => c.notNull())
        .addColumn("code_challenge", "varchar(64)", (c) => c.notNull())
        .addColumn("scopes", "text", (c) => c.notNull())
        .addColumn("clinic_ids", "text", (c) => c.notNull())
        .addColumn("not_after", TIME)
        .addColumn("created_at", TIME, (c) => c.notNull())
        .addColumn("expires_at", TIME, (c) => c.notNull())
        .addColumn("used_at", TIME)
        .addColumn("token_id", "varchar(64)")
        .addColumn("token_expires_at", TIME)
        .addColumn("revoked_at", TIME)
        .execute();
      await db.schema.createIndex("sso_grants_token_ix").on("sso_grants").column("token_id").execute();
      await db.schema.createIndex("sso_grants_expiry_ix").on("sso_grants").column("expires_at").execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable("sso_grants").execute();
    },
  };
}
