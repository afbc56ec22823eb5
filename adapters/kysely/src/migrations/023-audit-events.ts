import type { Kysely, Migration } from "kysely";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";

/**
 * The audit trail: appended with the writes it records, read newest first per organisation; no statement of the
 * application updates or deletes a row. Changed field names are a JSON array (names only, never values).
 */
export function auditEventsMigration(profile: SqlDialectProfile): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("audit_events")
        .addColumn("id", profile.autoIncrementColumnType(), (c) => profile.autoIncrement(c.primaryKey()))
        .addColumn("organisation_id", "bigint", (c) => c.notNull())
        .addColumn("occurred_at", "varchar(30)", (c) => c.notNull())
        .addColumn("actor_user_id", "bigint")
        .addColumn("actor_name", "varchar(200)")
        .addColumn("client_id", "varchar(40)")
        .addColumn("action", "varchar(100)", (c) => c.notNull())
        .addColumn("resource_type", "varchar(50)", (c) => c.notNull())
        .addColumn("resource_id", "varchar(64)")
        .addColumn("request_id", "varchar(128)")
        .addColumn("changed_fields", "text", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("audit_org_id_ix").on("audit_events").columns(["organisation_id", "id"]).execute();
      await db.schema
        .createIndex("audit_org_resource_ix")
        .on("audit_events")
        .columns(["organisation_id", "resource_type", "resource_id", "id"])
        .execute();
      await db.schema
        .createIndex("audit_org_actor_ix")
        .on("audit_events")
        .columns(["organisation_id", "actor_user_id", "id"])
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable("audit_events").execute();
    },
  };
}
