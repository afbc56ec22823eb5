import { systemError } from "../kernel/system-errors.js";
import { clinicAccess } from "../auth/clinic-access.js";
import type { Principal } from "../auth/principal.js";
import type { Clock } from "../kernel/clock.js";
import { DomainError } from "../kernel/domain-error.js";
import { toPageWindow } from "../kernel/paging.js";
import type { Storage } from "../kernel/storage.js";
import type { AuditServiceRepositories } from "./audit-service-repositories.js";
import { AUDIT_LIMITS, type AuditEntry, type AuditEvent, type AuditListFilter } from "./audit-event.js";
import { runInAuditScope, type AuditScope } from "./audit-scope.js";
import { auditRow } from "./audited-storage.js";

/**
 * The audit trail: every write through the API is recorded with its first transaction (runAudited); reads of
 * patient records when the organisation asks for it (record). Entries are never changed or deleted.
 */
export class AuditService {
  constructor(private readonly deps: { storage: Storage<AuditServiceRepositories>; clock: Clock }) {}

  /**
   * Runs a write as an audited operation: its first transaction commits the entry with it. An operation that
   * succeeds without a transaction (one that changed nothing, say) gets its entry on its own afterwards.
   */
  async runAudited<T>(organisationId: number, entry: AuditEntry, fn: () => Promise<T>): Promise<T> {
    const scope: AuditScope = { organisationId, entry, resourceId: null, recorded: false };
    const result = await runInAuditScope(scope, fn);
    // In a transaction of its own, so that a counted write's rate-limit hit (RateLimiter.runCounted) gates the
    // entry as it gates any other write: over the budget there is no entry.
    if (!scope.recorded)
      await this.deps.storage.transaction((tx) => tx.audit.append([auditRow(scope, this.deps.clock.now())]));
    return result;
  }

  /** Records an entry on its own (a read, a token issued). */
  async record(organisationId: number, entry: AuditEntry): Promise<void> {
    await this.deps.storage.repositories.audit.append([
      { ...entry, organisationId, occurredAt: this.deps.clock.now() },
    ]);
  }

  /** The organisation's entries, newest first. */
  async list(
    organisationId: number,
    query: AuditListFilter & { page?: number | undefined; perPage?: number | undefined },
  ): Promise<{ events: AuditEvent[]; total: number; page: number; perPage: number }> {
    const { page, size, limit, offset } = toPageWindow(query.page, query.perPage, {
      defaultSize: AUDIT_LIMITS.defaultPerPage,
      maxSize: AUDIT_LIMITS.maxPerPage,
    });
    if (query.from && query.to && query.from >= query.to)
      throw DomainError.invalidParameter("to", query.to.toISOString(), "must be after from");
    const found = await this.deps.storage.repositories.audit.list(organisationId, { ...query, limit, offset });
    return { ...found, page, perPage: size };
  }

  /**
   * The trail as a caller reads it (GET /v2/audit-events): the whole organisation's, so a caller restricted to
   * clinics is refused. Its entries name no clinic and cannot be filtered by one.
   */
  listFor(
    principal: Principal,
    query: AuditListFilter & { page?: number | undefined; perPage?: number | undefined },
  ): ReturnType<AuditService["list"]> {
    const only = clinicAccess(principal).only;
    if (only)
      throw systemError(
        "INSUFFICIENT_PERMISSIONS",
        "The audit trail spans every clinic of the organisation: a caller restricted to clinics cannot read it",
        { allowed_clinic_ids: [...only] },
      );
    return this.list(principal.organisationId, query);
  }
}
