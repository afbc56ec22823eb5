import type { Kysely, Migration } from "kysely";

const TIME = "varchar(30)";

/**
 * Each organisation's clearinghouse set through the API (docs/insurance.md): one row per organisation, the
 * password sealed (AES-256-GCM, as webhook signature keys), a CA bundle as PEM text when the clearinghouse needs one.
 */
export function clearinghouseSettingsMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("clearinghouse_settings")
        .addColumn("organisation_id", "bigint", (c) => c.primaryKey().references("organisations.id"))
        .addColumn("url", "varchar(2000)", (c) => c.notNull())
        .addColumn("username", "varchar(200)", (c) => c.notNull())
        // Sealed as hex: 61 characters plus 2 per UTF-8 byte (500 characters of 3 bytes: 3,061).
        .addColumn("sealed_password", "text", (c) => c.notNull())
        .addColumn("submitter_id", "varchar(15)", (c) => c.notNull())
        .addColumn("receiver_id", "varchar(15)", (c) => c.notNull())
        .addColumn("provider_npi", "varchar(10)", (c) => c.notNull())
        .addColumn("provider_name", "varchar(60)", (c) => c.notNull())
        .addColumn("timeout_ms", "integer")
        .addColumn("ca_pem", "text")
        .addColumn("usage", "varchar(1)", (c) => c.notNull())
        .addColumn("password_set_at", TIME, (c) => c.notNull())
        .addColumn("last_tested_at", TIME)
        .addColumn("last_test_outcome", "varchar(30)")
        .addColumn("created_at", TIME, (c) => c.notNull())
        .addColumn("updated_at", TIME, (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable("clearinghouse_settings").execute();
    },
  };
}
