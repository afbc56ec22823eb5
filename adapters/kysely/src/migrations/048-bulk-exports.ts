import type { Kysely, Migration } from "kysely";
import { dropIndexOf, type SqlDialectProfile } from "../sql-dialect-profile.js";

/**
 * FHIR Bulk Data export (docs/fhir.md): the exports and their NDJSON files (the bytes are in the document store,
 * sealed). Keys lead with organisation_id (docs/scale-out.md); the status index serves the per-organisation limit
 * of exports in progress, the expiry index the purge, the storage key index the document store's orphan sweep; the
 * (organisation_id, id) indexes of the exported tables serve the export's keyset pages.
 */
export function bulkExportsMigration(profile: SqlDialectProfile): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("bulk_exports")
        .addColumn("organisation_id", "integer", (c) => c.notNull())
        .addColumn("id", "varchar(36)", (c) => c.notNull())
        .addColumn("kind", "varchar(10)", (c) => c.notNull())
        .addColumn("types", "varchar(500)", (c) => c.notNull())
        .addColumn("since", "varchar(30)")
        .addColumn("request_url", "text", (c) => c.notNull())
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
      // The export reads each type by (organisation, id) keyset pages: without these an organisation's page walks the
      // primary key past other organisations' rows, or sorts its own remaining rows, at every page.
      for (const table of ["patients", "appointments", "insurance_cards", "soap_notes", "patient_documents"])
        await db.schema
          .createIndex(`${table}_organisation_keyset`)
          .on(table)
          .columns(["organisation_id", "id"])
          .execute();
    },
    async down(db: Kysely<any>) {
      for (const table of ["patients", "appointments", "insurance_cards", "soap_notes", "patient_documents"])
        await dropIndexOf(db, profile, `${table}_organisation_keyset`, table).execute();
      await db.schema.dropTable("bulk_export_files").execute();
      await db.schema.dropTable("bulk_exports").execute();
    },
  };
}
