import { schedulingError } from "./scheduling-errors.js";
import { blockOccurrences } from "./block-series.js";
import { SLOT_HOLDING_STATUSES } from "../appointments/appointment-state-machine.js";
import { queueFreedTime } from "../appointments/freed-time.js";
import type { Appointment } from "../appointments/appointment.js";
import { clinicAccess } from "../auth/clinic-access.js";
import type { Principal } from "../auth/principal.js";
import type { Provider } from "../organisations/organisation.js";
import type { Clock } from "../kernel/clock.js";
import { DomainError } from "../kernel/domain-error.js";
import { providerNotFound } from "../organisations/organisation-errors.js";
import type { Storage } from "../kernel/storage.js";
import type { SchedulingServiceRepositories } from "./scheduling-service-repositories.js";
import { BLOCK_LIMITS, type BlockDraft, blockIssues, lastEnd, type ProviderBlock } from "./provider-block.js";

const DAY_MS = 86_400_000;

export const blockNotFound = (id: number) => schedulingError("BLOCK_NOT_FOUND", "Block not found", { block_id: id });

/** The most appointments a block's answer lists as overlapped (more are counted, not listed). */
const LISTED_OVERLAPS = 100;

/**
 * The provider whose calendar the principal may block: one of the organisation's, working at a clinic within the
 * principal's clinic restriction (a block holds the provider's time at every clinic, so it follows the provider).
 */
export async function reachableProvider(
  storage: Storage<SchedulingServiceRepositories>,
  principal: Principal,
  providerId: number,
): Promise<Provider | undefined> {
  const provider = await storage.repositories.organisations.findProviderById(principal.organisationId, providerId);
  return provider && clinicAccess(principal).canSeeAny(provider.clinicIds) ? provider : undefined;
}

/** Time providers are not bookable. A block over booked appointments is stored and says which: none is cancelled. */
export class BlockService {
  constructor(private readonly deps: { storage: Storage<SchedulingServiceRepositories>; clock: Clock }) {}

  async create(
    principal: Principal,
    providerId: number,
    draft: BlockDraft,
  ): Promise<{ block: ProviderBlock; overlapping: Appointment[]; overlappingCount: number }> {
    const issues = blockIssues(draft);
    if (issues.length > 0) throw DomainError.validation(issues);
    const organisationId = principal.organisationId;
    const repositories = this.deps.storage.repositories;
    const provider = await reachableProvider(this.deps.storage, principal, providerId);
    if (!provider) throw providerNotFound(providerId);
    const rrule = draft.rrule?.trim() || null;
    const shape = {
      startsAt: draft.startsAt,
      endsAt: draft.endsAt,
      timeZone: rrule ? (draft.timeZone ?? null) : null,
      rrule,
    };
    const now = this.deps.clock.now();
    const block = await repositories.blocks.insert({
      organisationId,
      providerId,
      ...shape,
      reason: draft.reason.trim(),
      lastEndsAt: lastEnd(shape),
      createdAt: now,
      removedAt: null,
      exceptions: [],
      seriesId: null,
      version: 1,
    });
    // The appointments it overlaps, as a warning: booked visits are the front desk's to move, not ours to cancel.
    const { appointments } = await repositories.appointments.list({
      organisationId,
      doctorId: provider.userId,
      inClinics: clinicAccess(principal).only,
      startsFrom: new Date(block.startsAt.getTime() - 86_400_000),
      startsBefore: block.lastEndsAt,
      statuses: [...SLOT_HOLDING_STATUSES],
      limit: 10_000,
      offset: 0,
    });
    const overlapping = appointments.filter((a) => blockOccurrences(block, a.startsAt, a.endsAt).length > 0);
    return { block, overlapping: overlapping.slice(0, LISTED_OVERLAPS), overlappingCount: overlapping.length };
  }

  /** The provider's blocks that meet [from, to): from now and a year on unless said, never more than 366 days. */
  async list(principal: Principal, providerId: number, range: { from?: Date; to?: Date }): Promise<ProviderBlock[]> {
    const repositories = this.deps.storage.repositories;
    if (!(await reachableProvider(this.deps.storage, principal, providerId))) throw providerNotFound(providerId);
    const from = range.from ?? this.deps.clock.now();
    const to = range.to ?? new Date(from.getTime() + BLOCK_LIMITS.maxListDays * DAY_MS);
    if (!(to > from)) throw DomainError.invalidParameter("to", to.toISOString(), "must be after from");
    if (to.getTime() - from.getTime() > BLOCK_LIMITS.maxListDays * DAY_MS)
      throw DomainError.invalidParameter(
        "to",
        to.toISOString(),
        `must be at most ${BLOCK_LIMITS.maxListDays} days after from`,
      );
    return repositories.blocks.listBetween(principal.organisationId, [providerId], from, to);
  }

  /** Removes a block: its time is bookable again. Removing it again is 404. */
  async remove(principal: Principal, id: number): Promise<ProviderBlock> {
    const repositories = this.deps.storage.repositories;
    const found = await repositories.blocks.findById(principal.organisationId, id);
    if (
      !found ||
      found.removedAt !== null ||
      !(await reachableProvider(this.deps.storage, principal, found.providerId))
    )
      throw blockNotFound(id);
    const now = this.deps.clock.now();
    const removed = await this.deps.storage.transaction(async (tx) => {
      if (!(await tx.blocks.remove(principal.organisationId, id, now))) return false;
      // Its coming occurrences (the next 31 days, at most 62) are bookable again: the waitlist may fill them.
      const ahead = blockOccurrences(found, now, new Date(now.getTime() + 31 * DAY_MS)).slice(0, 62);
      for (const o of ahead)
        await queueFreedTime(
          tx,
          {
            organisationId: principal.organisationId,
            providerId: found.providerId,
            clinicId: null,
            startsAt: o.start,
            endsAt: o.end,
          },
          now,
        );
      return true;
    });
    if (!removed) throw blockNotFound(id);
    return { ...found, removedAt: now };
  }
}
