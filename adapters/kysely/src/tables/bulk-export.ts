/** A Bulk Data export (048-bulk-exports). */
export interface BulkExportsTable {
  organisation_id: number;
  id: string;
  kind: string;
  /** Comma-separated resource types, in the order they are written. */
  types: string;
  since: string | null;
  request_url: string;
  requested_by_user: number | null;
  requested_by_client: string | null;
  /** A JSON array of clinic ids, or null for every clinic. */
  in_clinics: string | null;
  status: string;
  cursor_type: number;
  cursor_after: number;
  exported: number;
  error: string | null;
  transaction_time: string;
  updated_at: string;
  completed_at: string | null;
  expires_at: string | null;
}

/** One NDJSON file of an export, sealed in the document store. */
export interface BulkExportFilesTable {
  organisation_id: number;
  export_id: string;
  position: number;
  type: string;
  storage_key: string;
  wrapped_key: string;
  resource_count: number;
  size_bytes: number;
}

/** The bulk export domain's tables by name: its line in `Database` (schema.ts). */
export interface BulkExportSchema {
  bulk_exports: BulkExportsTable;
  bulk_export_files: BulkExportFilesTable;
}
