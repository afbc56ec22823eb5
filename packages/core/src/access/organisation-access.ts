import { accessError } from "./access-errors.js";
import type { Clock } from "../kernel/clock.js";
import { isPlatformPrincipal, type Principal } from "../auth/principal.js";
import type { Storage } from "../kernel/storage.js";
import type { AccessServiceRepositories } from "./access-service-repositories.js";

/** How long a process trusts what it read of an organisation; a deactivation takes effect within this. */
export const ORGANISATION_ACCESS_CACHE_MS = 30_000;

interface Known {
  deactivated: boolean;
  auditReads: boolean;
  readAt: number;
}

/**
 * What every authenticated request needs to know of its organisation: whether it was deactivated (its tokens are
 * refused) and whether reads are audited. Read from the store at most every 30 seconds per organisation.
 */
export class OrganisationAccess {
  private readonly known = new Map<number, Known>();

  constructor(private readonly deps: { storage: Storage<AccessServiceRepositories>; clock: Clock }) {}

  private async lookup(organisationId: number): Promise<Known> {
    const now = this.deps.clock.now().getTime();
    const cached = this.known.get(organisationId);
    if (cached && now - cached.readAt < ORGANISATION_ACCESS_CACHE_MS) return cached;
    const org = await this.deps.storage.repositories.organisations.findById(organisationId);
    // An organisation without a record yet (created by its first write) is active and not read-audited.
    const fresh = { deactivated: org?.deactivatedAt != null, auditReads: org?.auditReads ?? false, readAt: now };
    if (this.known.size > 10_000) this.known.clear();
    this.known.set(organisationId, fresh);
    return fresh;
  }

  /** Throws ORGANISATION_DEACTIVATED for a deactivated organisation's principal; platform principals pass. */
  async assertActive(principal: Principal): Promise<void> {
    if (isPlatformPrincipal(principal)) return;
    if ((await this.lookup(principal.organisationId)).deactivated)
      throw accessError("ORGANISATION_DEACTIVATED", "The organisation is deactivated; its tokens are refused", {
        organisation_id: principal.organisationId,
      });
  }

  /** Whether the organisation audits reads of patient records (its audit_reads setting). */
  async auditsReads(organisationId: number): Promise<boolean> {
    return (await this.lookup(organisationId)).auditReads;
  }

  /** Forgets what this process read of the organisation (after this process changed it). */
  forget(organisationId: number): void {
    this.known.delete(organisationId);
  }
}
