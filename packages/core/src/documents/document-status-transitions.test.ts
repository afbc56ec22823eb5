import { describe, expect, it } from "vitest";
import { DOCUMENT_TRANSITIONS, DOCUMENT_TRIGGERS, documentTransition } from "./document-status-transitions.js";
import { DOCUMENT_STATUSES } from "./patient-document.js";

// Every row of the table, and every (status, trigger) pair it leaves out, as the service sees them.
const ALLOWED: Record<string, string | null> = {
  "pending_scan/scan_clean": "available",
  "pending_scan/scan_infected": "quarantined",
  "pending_scan/scan_skipped": "available",
  "pending_scan/delete": "deleted",
  "available/delete": "deleted",
  "quarantined/delete": "deleted",
  "deleted/purge": null,
};

describe("patient document status table", () => {
  for (const from of DOCUMENT_STATUSES)
    for (const trigger of DOCUMENT_TRIGGERS) {
      const pair = `${from}/${trigger}`;
      if (pair in ALLOWED)
        it(`${pair} → ${ALLOWED[pair] ?? "(row removed)"}`, () => {
          expect(documentTransition(from, trigger)?.to).toBe(ALLOWED[pair]);
        });
      else
        it(`${pair} is refused`, () => {
          expect(documentTransition(from, trigger)).toBeUndefined();
        });
    }

  it("has exactly the rows above, each once", () => {
    expect(DOCUMENT_TRANSITIONS.map((t) => `${t.from}/${t.trigger}`).sort()).toEqual(Object.keys(ALLOWED).sort());
  });

  it("records the scan on every verdict and emits the event on every deletion", () => {
    for (const t of DOCUMENT_TRANSITIONS) {
      if (t.trigger.startsWith("scan_")) expect(t.effects).toContain("record_scan");
      if (t.trigger === "delete") expect(t.effects).toContain("emit_document_deleted");
      if (t.trigger === "purge") expect(t.guards).toContain("retention_elapsed");
    }
  });
});
