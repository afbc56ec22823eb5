import type { DocumentStatus, ScanResult } from "./patient-document.js";

/** What moves a document's status: the scan job's verdicts, a caller's DELETE and the retention purge. */
export const DOCUMENT_TRIGGERS = ["scan_clean", "scan_infected", "scan_skipped", "delete", "purge"] as const;
export type DocumentTrigger = (typeof DOCUMENT_TRIGGERS)[number];

/**
 * Conditions besides the status: `retention_elapsed`, the organisation's retention period has run out since the
 * deletion (purge_after is past).
 */
export type DocumentGuard = "retention_elapsed";

/** What a transition does besides changing the status. */
export type DocumentEffect =
  | "record_scan"
  | "set_deleted_and_purge_after"
  | "emit_document_deleted"
  | "remove_bytes_and_row"
  | "audit_purge";

export interface DocumentTransition {
  from: DocumentStatus;
  trigger: DocumentTrigger;
  guards: readonly DocumentGuard[];
  /** null: the row is gone (the purge). */
  to: DocumentStatus | null;
  /** The scan result the row takes, where the transition sets one. */
  scan?: ScanResult;
  effects: readonly DocumentEffect[];
}

/**
 * The status machine of patient documents, one row per allowed transition; anything else is refused (a scan
 * verdict for a document no longer pending is dropped, a second DELETE answers the document as not found, a
 * purge before its time does nothing). Creation (no state → pending_scan, or available when no scanner is
 * configured or the system rendered the bytes) is the service's create().
 */
export const DOCUMENT_TRANSITIONS: readonly DocumentTransition[] = Object.freeze([
  { from: "pending_scan", trigger: "scan_clean", guards: [], to: "available", scan: "clean", effects: ["record_scan"] },
  {
    from: "pending_scan",
    trigger: "scan_infected",
    guards: [],
    to: "quarantined",
    scan: "infected",
    effects: ["record_scan"],
  },
  {
    // The scanner was removed from the configuration after the upload: served unscanned, as new uploads are.
    from: "pending_scan",
    trigger: "scan_skipped",
    guards: [],
    to: "available",
    scan: "not_configured",
    effects: ["record_scan"],
  },
  ...(["pending_scan", "available", "quarantined"] as const).map(
    (from): DocumentTransition => ({
      from,
      trigger: "delete",
      guards: [],
      to: "deleted",
      effects: ["set_deleted_and_purge_after", "emit_document_deleted"],
    }),
  ),
  {
    from: "deleted",
    trigger: "purge",
    guards: ["retention_elapsed"],
    to: null,
    effects: ["remove_bytes_and_row", "audit_purge"],
  },
]);

/** The row for this status and trigger, or undefined when the table refuses it. */
export function documentTransition(from: DocumentStatus, trigger: DocumentTrigger): DocumentTransition | undefined {
  return DOCUMENT_TRANSITIONS.find((t) => t.from === from && t.trigger === trigger);
}
