import type { Kysely, Migration } from "kysely";

/**
 * FHIR Bulk Data export (docs/fhir.md): the exports and their NDJSON files (the bytes are in the document store,
 * sealed). Keys lead with organisation_id (docs/scale-out.md); the status index serves the per-organisation limit
 * of exports in progress, the expiry index the purge, the storage key index the document store's orphan sweep.
 */
export function bulkExportsMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("bulk_exports")
        .addColumn("organisation_id", "integer", (c) => c.notNull())
        .addColumn("id", "varchar(36)", (c) => c.notNull())
        .addColumn("kind", "varchar(10)", (c) => c.notNull())
        .addColumn("types", "varchar(500)", (c) => c.notNull())
        .addColumn("since", "varchar(30)")
        .addColumn("request_url", "varchar(4000)", (c) => c.notNull())
        .addColumn("requested_by_user", "integer")
        .addColumn("requested_by_client", "varchar(64)")
        .addColumn("in_clinics", "text")
        .addColumn("status", "varchar(12)", (c) => c.notNull())
        .addColumn("cursor_type", "integer", (c) => c.notNull())
        .addColumn("cursor_after", "integer", (c) => c.notNull())
        .addColumn("exported", "integer", (c) => c.notNull())
        .addColumn("error", "text")
        .addColumn("transaction_time", "varchar(30)", (c) => c.notNull())
        .addColumn("updated_at", "varchar(30)", (c) => c.notNull())
        .addColumn("completed_at", "varchar(30)")
        .addColumn("expires_at", "varchar(30)")
        .addPrimaryKeyConstraint("bulk_exports_pk", ["organisation_id", "id"])
        .execute();
      await db.schema
        .createIndex("bulk_exports_status")
        .on("bulk_exports")
        .columns(["organisation_id", "status"])
        .execute();
      await db.schema.createIndex("bulk_exports_expiry").on("bulk_exports").column("expires_at").execute();
      await db.schema
        .createTable("bulk_export_files")
        .addColumn("organisation_id", "integer", (c) => c.notNull())
        .addColumn("export_id", "varchar(36)", (c) => c.notNull())
        .addColumn("position", "integer", (c) => c.notNull())
        .addColumn("type", "varchar(40)", (c) => c.notNull())
        .addColumn("storage_key", "varchar(64)", (c) => c.notNull())
        .addColumn("wrapped_key", "text", (c) => c.notNull())
        .addColumn("resource_count", "integer", (c) => c.notNull())
        .addColumn("size_bytes", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("bulk_export_files_pk", ["organisation_id", "export_id", "position"])
        .execute();
      await db.schema.createIndex("bulk_export_files_key").on("bulk_export_files").column("storage_key").execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable("bulk_export_files").execute();
      await db.schema.dropTable("bulk_exports").execute();
    },
  };
}
