import { defineKyselyModule } from "../kysely-module.js";
import { bulkExportsMigration } from "../migrations/048-bulk-exports.js";
import { KyselyBulkExportRepository } from "../repositories/bulk-export-repository.js";
import { KyselyBulkExportSource } from "../repositories/bulk-export-source.js";

/** FHIR Bulk Data export: its exports and files, and its keyset reads over the other domains' tables. */
export const bulkExportKyselyModule = defineKyselyModule({
  key: "bulkExport",
  repositories: (db) => ({
    bulkExports: new KyselyBulkExportRepository(db),
    bulkExportSource: new KyselyBulkExportSource(db),
  }),
  migrations: (profile) => ({ "048-bulk-exports": bulkExportsMigration(profile) }),
  tables: ["bulk_exports", "bulk_export_files"],
});
