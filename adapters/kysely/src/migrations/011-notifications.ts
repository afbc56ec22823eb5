import type { Kysely, Migration } from "kysely";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";

const TIME = "varchar(30)";
/** dev_<uuid> and ntf_<uuid>. */
const PREFIXED_UUID = "varchar(40)";

/**
 * Push devices, notifications (each also an inbox entry), and the per-device
 * pushes and attempts of their delivery. No foreign key to organisations: a
 * token's organisation may send before it has a profile row.
 */
export function notificationsMigration(profile: SqlDialectProfile): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("notification_devices")
        .addColumn("id", PREFIXED_UUID, (c) => c.primaryKey())
        .addColumn("organisation_id", "bigint", (c) => c.notNull())
        .addColumn("user_type", "varchar(10)", (c) => c.notNull())
        .addColumn("user_id", "varchar(128)", (c) => c.notNull())
        .addColumn("endpoint", "varchar(2048)", (c) => c.notNull())
        // SHA-256 of the endpoint: the unique key, since MySQL cannot index 2,048 characters of utf8mb4.
        .addColumn("endpoint_hash", "varchar(64)", (c) => c.notNull())
        .addColumn("p256dh", "varchar(120)", (c) => c.notNull())
        .addColumn("auth", "varchar(40)", (c) => c.notNull())
        .addColumn("label", "varchar(200)")
        .addColumn("created_at", TIME, (c) => c.notNull())
        .addColumn("updated_at", TIME, (c) => c.notNull())
        .addUniqueConstraint("notification_devices_org_endpoint_uq", ["organisation_id", "endpoint_hash"])
        .execute();
      await db.schema
        .createIndex("notification_devices_user_ix")
        .on("notification_devices")
        .columns(["organisation_id", "user_type", "user_id"])
        .execute();

      await db.schema
        .createTable("notifications")
        .addColumn("id", PREFIXED_UUID, (c) => c.primaryKey())
        .addColumn("organisation_id", "bigint", (c) => c.notNull())
        .addColumn("user_type", "varchar(10)", (c) => c.notNull())
        .addColumn("user_id", "varchar(128)", (c) => c.notNull())
        .addColumn("title", "varchar(255)", (c) => c.notNull())
        .addColumn("body", "text")
        .addColumn("link", "text")
        .addColumn("idempotency_key", "varchar(255)")
        .addColumn("delivery_status", "varchar(20)", (c) => c.notNull())
        .addColumn("read_at", TIME)
        .addColumn("created_at", TIME, (c) => c.notNull())
        .addColumn("updated_at", TIME, (c) => c.notNull())
        // Idempotency by the database: NULL keys never clash on any engine, a repeated key always does.
        .addUniqueConstraint("notifications_org_idempotency_uq", ["organisation_id", "idempotency_key"])
        .execute();
      await db.schema
        .createIndex("notifications_inbox_ix")
        .on("notifications")
        .columns(["organisation_id", "user_type", "user_id", "created_at"])
        .execute();

      await db.schema
        .createTable("notification_pushes")
        .addColumn("notification_id", PREFIXED_UUID, (c) => c.notNull())
        .addColumn("device_id", PREFIXED_UUID, (c) => c.notNull())
        .addColumn("organisation_id", "bigint", (c) => c.notNull())
        .addColumn("push_service", "varchar(300)", (c) => c.notNull())
        .addColumn("status", "varchar(10)", (c) => c.notNull())
        .addColumn("attempts", "integer", (c) => c.notNull())
        .addColumn("last_status_code", "integer")
        .addColumn("error", "text")
        .addColumn("created_at", TIME, (c) => c.notNull())
        .addColumn("updated_at", TIME, (c) => c.notNull())
        .addPrimaryKeyConstraint("notification_pushes_pk", ["notification_id", "device_id"])
        .execute();

      await db.schema
        .createTable("notification_push_attempts")
        .addColumn("id", profile.autoIncrementColumnType(), (c) => profile.autoIncrement(c.primaryKey()))
        .addColumn("notification_id", PREFIXED_UUID, (c) => c.notNull())
        .addColumn("device_id", PREFIXED_UUID, (c) => c.notNull())
        .addColumn("attempt", "integer", (c) => c.notNull())
        .addColumn("at", TIME, (c) => c.notNull())
        .addColumn("status_code", "integer")
        .addColumn("retry_after_seconds", "integer")
        .addColumn("duration_ms", "integer", (c) => c.notNull())
        .addColumn("outcome", "varchar(10)", (c) => c.notNull())
        .addColumn("error", "text")
        .execute();
      await db.schema
        .createIndex("notification_push_attempts_ix")
        .on("notification_push_attempts")
        .columns(["notification_id", "id"])
        .execute();
    },
    async down(db: Kysely<any>) {
      for (const t of ["notification_push_attempts", "notification_pushes", "notifications", "notification_devices"])
        await db.schema.dropTable(t).execute();
    },
  };
}
