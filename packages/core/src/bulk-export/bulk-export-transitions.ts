import type { BulkExportStatus } from "./bulk-export.js";

/**
 * What moves an export's status: the job's `start`, `slice` (a file written, more to come), `finish` and `fail`,
 * and the requester's `cancel` (DELETE).
 */
export const BULK_EXPORT_TRIGGERS = ["start", "slice", "finish", "fail", "cancel"] as const;
export type BulkExportTrigger = (typeof BULK_EXPORT_TRIGGERS)[number];

export type BulkExportEffect = "record_file" | "advance_cursor" | "set_completed" | "set_expiry" | "record_error";

export interface BulkExportTransition {
  from: BulkExportStatus;
  trigger: BulkExportTrigger;
  to: BulkExportStatus;
  effects: readonly BulkExportEffect[];
}

const ACTIVE = ["queued", "running"] as const;
const NOT_CANCELLED = ["queued", "running", "completed", "failed"] as const;

/**
 * The status machine of exports, one row per allowed transition; any other pair is refused (the job stops; a
 * DELETE of a cancelled export answers 404, as Bulk Data's "no such request" does).
 */
export const BULK_EXPORT_TRANSITIONS: readonly BulkExportTransition[] = Object.freeze([
  { from: "queued", trigger: "start", to: "running", effects: [] },
  { from: "running", trigger: "slice", to: "running", effects: ["record_file", "advance_cursor"] },
  ...ACTIVE.map(
    (from): BulkExportTransition => ({
      from,
      trigger: "finish",
      to: "completed",
      effects: ["set_completed", "set_expiry"],
    }),
  ),
  ...ACTIVE.map(
    (from): BulkExportTransition => ({
      from,
      trigger: "fail",
      to: "failed",
      effects: ["record_error", "set_completed", "set_expiry"],
    }),
  ),
  // A DELETE of a finished export removes its files (Bulk Data 2.0: the client is done with them).
  ...NOT_CANCELLED.map(
    (from): BulkExportTransition => ({ from, trigger: "cancel", to: "cancelled", effects: ["set_expiry"] }),
  ),
]);

/** The row for (status, trigger), or undefined when the machine refuses it. */
export function bulkExportTransition(
  from: BulkExportStatus,
  trigger: BulkExportTrigger,
): BulkExportTransition | undefined {
  return BULK_EXPORT_TRANSITIONS.find((t) => t.from === from && t.trigger === trigger);
}
