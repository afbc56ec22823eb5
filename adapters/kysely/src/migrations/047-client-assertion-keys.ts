import type { Kysely, Migration } from "kysely";

/**
 * SMART Backend Services (docs/authentication.md): API clients' public keys (a JWK Set inline, JSON, or its URL) and
 * the client assertions the token endpoint accepted, by client and jti until they expire, so a second use of one is
 * refused. The expiry index serves the hourly purge.
 */
export function clientAssertionKeysMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable("api_clients").addColumn("jwks", "text").execute();
      await db.schema.alterTable("api_clients").addColumn("jwks_uri", "varchar(2000)").execute();
      await db.schema
        .createTable("client_assertions")
        .addColumn("client_id", "varchar(64)", (c) => c.notNull())
        .addColumn("jti", "varchar(255)", (c) => c.notNull())
        .addColumn("expires_at", "varchar(30)", (c) => c.notNull())
        .addPrimaryKeyConstraint("client_assertions_pk", ["client_id", "jti"])
        .execute();
      await db.schema.createIndex("client_assertions_expiry").on("client_assertions").column("expires_at").execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable("client_assertions").execute();
      await db.schema.alterTable("api_clients").dropColumn("jwks_uri").execute();
      await db.schema.alterTable("api_clients").dropColumn("jwks").execute();
    },
  };
}
