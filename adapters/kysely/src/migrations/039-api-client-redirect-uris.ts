import type { Kysely, Migration } from "kysely";

/**
 * API clients' redirect URIs for single sign-on (docs/sso.md): a JSON array of exact URLs (at most 10 of 2,000
 * characters). Existing clients have none (NULL reads as an empty list).
 */
export function apiClientRedirectUrisMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable("api_clients").addColumn("redirect_uris", "text").execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.alterTable("api_clients").dropColumn("redirect_uris").execute();
    },
  };
}
