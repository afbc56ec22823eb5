import type { AuditEvent, AuditListFilter } from "./audit-event.js";

/** The audit trail: append and read only (no port method changes or deletes an entry). */
export interface AuditRepository {
  append(events: ReadonlyArray<Omit<AuditEvent, "id">>): Promise<void>;
  /** The organisation's entries, newest first (by id), filtered. */
  list(
    organisationId: number,
    filter: AuditListFilter & { limit: number; offset: number },
  ): Promise<{ events: AuditEvent[]; total: number }>;
}
