import { errorsOf } from "../kernel/domain-error.js";

/** Errors of Bulk Data export. Codes are public: never renamed or reused. */
export const BULK_EXPORT_ERROR_CODES = [
  /** No export of that id for this requester (another organisation's, another client's, cancelled or purged). */
  "BULK_EXPORT_NOT_FOUND",
  /** The organisation already has as many exports queued or running as it may (details.limit): retry later. */
  "BULK_EXPORT_LIMIT_REACHED",
  /** The export ran and failed (the reason is on its record, for operators); its status answers this until purged. */
  "BULK_EXPORT_FAILED",
] as const;

export const bulkExportError = errorsOf(BULK_EXPORT_ERROR_CODES);
