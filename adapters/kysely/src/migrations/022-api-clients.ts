import type { Kysely, Migration } from "kysely";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";

const TIME = "varchar(30)";

/**
 * API clients: public client_id (unique everywhere), name unique per organisation on its lower-cased form, scrypt
 * hashes of the current and the rotated-out secret. organisation_id 0 holds platform clients, so it has no foreign key.
 */
export function apiClientsMigration(profile: SqlDialectProfile): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("api_clients")
        .addColumn("id", profile.autoIncrementColumnType(), (c) => profile.autoIncrement(c.primaryKey()))
        .addColumn("organisation_id", "bigint", (c) => c.notNull())
        .addColumn("client_id", "varchar(40)", (c) => c.notNull())
        .addColumn("name", "varchar(100)", (c) => c.notNull())
        .addColumn("name_key", "varchar(100)", (c) => c.notNull())
        .addColumn("scopes", "text", (c) => c.notNull())
        .addColumn("clinic_ids", "text", (c) => c.notNull())
        .addColumn("user_id", "bigint")
        .addColumn("status", "varchar(10)", (c) => c.notNull())
        .addColumn("secret_hash", "varchar(200)", (c) => c.notNull())
        .addColumn("previous_secret_hash", "varchar(200)")
        .addColumn("previous_secret_expires_at", TIME)
        .addColumn("secret_rotated_at", TIME)
        .addColumn("last_token_at", TIME)
        .addColumn("created_at", TIME, (c) => c.notNull())
        .addColumn("updated_at", TIME, (c) => c.notNull())
        .addColumn("revoked_at", TIME)
        .addUniqueConstraint("api_clients_client_id_uq", ["client_id"])
        .addUniqueConstraint("api_clients_org_name_uq", ["organisation_id", "name_key"])
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable("api_clients").execute();
    },
  };
}
