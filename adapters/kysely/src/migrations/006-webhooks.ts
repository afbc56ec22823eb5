import type { Kysely, Migration } from "kysely";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";

const TIME = "varchar(30)";

/** Webhook subscriptions (keys encrypted), deliveries and their attempts; the organisation's lock column. */
export function webhooksMigration(profile: SqlDialectProfile): Migration {
  const id = (b: Parameters<SqlDialectProfile["autoIncrement"]>[0]) => profile.autoIncrement(b.primaryKey());
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable("organisations")
        .addColumn("webhook_lock", "integer", (c) => c.notNull().defaultTo(0))
        .execute();

      await db.schema
        .createTable("webhook_subscriptions")
        .addColumn("id", profile.autoIncrementColumnType(), id)
        .addColumn("organisation_id", "bigint", (c) => c.notNull().references("organisations.id"))
        .addColumn("name", "varchar(200)", (c) => c.notNull())
        .addColumn("event_types", "text", (c) => c.notNull())
        .addColumn("notification_url", "varchar(2048)", (c) => c.notNull())
        .addColumn("api_version", "varchar(20)", (c) => c.notNull())
        .addColumn("is_active", "integer", (c) => c.notNull())
        .addColumn("encrypted_key", "varchar(400)", (c) => c.notNull())
        .addColumn("created_at", TIME, (c) => c.notNull())
        .addColumn("updated_at", TIME, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("webhook_subscriptions_org_ix")
        .on("webhook_subscriptions")
        .columns(["organisation_id", "is_active", "id"])
        .execute();

      await db.schema
        .createTable("webhook_deliveries")
        .addColumn("id", profile.autoIncrementColumnType(), id)
        .addColumn("organisation_id", "bigint", (c) => c.notNull())
        .addColumn("subscription_id", "integer", (c) => c.notNull())
        .addColumn("outbox_id", "integer")
        .addColumn("event_id", "varchar(60)", (c) => c.notNull())
        .addColumn("event_type", "varchar(64)", (c) => c.notNull())
        .addColumn("api_version", "varchar(20)", (c) => c.notNull())
        .addColumn("data", "text", (c) => c.notNull())
        .addColumn("status", "varchar(10)", (c) => c.notNull())
        .addColumn("attempts", "integer", (c) => c.notNull())
        .addColumn("next_attempt_at", TIME)
        .addColumn("last_status_code", "integer")
        .addColumn("created_at", TIME, (c) => c.notNull())
        .addColumn("updated_at", TIME, (c) => c.notNull())
        // One delivery per event and subscription, even if two fan-outs overlap.
        .addUniqueConstraint("webhook_deliveries_sub_outbox_uq", ["subscription_id", "outbox_id"])
        .execute();
      await db.schema
        .createIndex("webhook_deliveries_sub_ix")
        .on("webhook_deliveries")
        .columns(["organisation_id", "subscription_id", "id"])
        .execute();

      await db.schema
        .createTable("webhook_attempts")
        .addColumn("id", profile.autoIncrementColumnType(), id)
        .addColumn("delivery_id", "integer", (c) => c.notNull())
        .addColumn("attempt", "integer", (c) => c.notNull())
        .addColumn("attempt_id", "varchar(40)", (c) => c.notNull())
        .addColumn("at", TIME, (c) => c.notNull())
        .addColumn("status_code", "integer")
        .addColumn("duration_ms", "integer", (c) => c.notNull())
        .addColumn("error", "text")
        .addColumn("response_excerpt", "text")
        .execute();
      await db.schema
        .createIndex("webhook_attempts_delivery_ix")
        .on("webhook_attempts")
        .columns(["delivery_id", "id"])
        .execute();
    },
    async down(db: Kysely<any>) {
      for (const t of ["webhook_attempts", "webhook_deliveries", "webhook_subscriptions"])
        await db.schema.dropTable(t).execute();
      await db.schema.alterTable("organisations").dropColumn("webhook_lock").execute();
    },
  };
}
