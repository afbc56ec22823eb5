import type { Kysely, Migration } from "kysely";

/**
 * Key rotation with a grace period (the key rotated out keeps signing until previous_key_expires_at) and the
 * per-subscription signature format (service: X-Service-Signature; standard: the Standard Webhooks headers).
 */
export function webhookSigningMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      // One column per statement: SQLite adds one at a time.
      await db.schema.alterTable("webhook_subscriptions").addColumn("previous_encrypted_key", "text").execute();
      await db.schema.alterTable("webhook_subscriptions").addColumn("previous_key_expires_at", "varchar(30)").execute();
      await db.schema
        .alterTable("webhook_subscriptions")
        .addColumn("signature_format", "varchar(20)", (c) => c.notNull().defaultTo("service"))
        .execute();
    },
    async down(db: Kysely<any>) {
      for (const column of ["signature_format", "previous_key_expires_at", "previous_encrypted_key"])
        await db.schema.alterTable("webhook_subscriptions").dropColumn(column).execute();
    },
  };
}
