import { SLOT_HOLDING_STATUSES } from "../appointments/appointment-state-machine.js";
import type { Appointment } from "../appointments/appointment.js";
import { queueFreedTime } from "../appointments/freed-time.js";
import { clinicAccess } from "../auth/clinic-access.js";
import type { Principal } from "../auth/principal.js";
import type { Clock } from "../kernel/clock.js";
import { noteAuditedQualifier } from "../audit/audit-scope.js";
import { DomainError, type ValidationIssue } from "../kernel/domain-error.js";
import { isCalendarDate } from "../kernel/calendar-date.js";
import type { Storage } from "../kernel/storage.js";
import type { Provider } from "../organisations/organisation.js";
import { blockNotFound, reachableProvider } from "./block-service.js";
import {
  blockOccurrences,
  occurrenceOn,
  type SeriesOccurrence,
  seriesOccurrences,
  splitSeries,
} from "./block-series.js";
import {
  BLOCK_LIMITS,
  type BlockException,
  EXCEPTION_REACH_MS,
  lastEnd,
  type ProviderBlock,
} from "./provider-block.js";
import { ruleOptions } from "./recurrence.js";
import { RRule } from "./rrule-interop.js";
import { systemError } from "../kernel/system-errors.js";
import type { SchedulingServiceRepositories } from "./scheduling-service-repositories.js";
import type { Interval } from "./shift.js";
import { isoInZone, zonedInstant } from "./zone-cache.js";

/** How much of a recurring block an edit or a deletion reaches (RFC 5545 calendar clients' three choices). */
export const BLOCK_EDIT_SCOPES = ["this", "this_and_following", "all"] as const;
export type BlockEditScope = (typeof BLOCK_EDIT_SCOPES)[number];

/**
 * An edit of a block. A recurring block's times are wall-clock `HH:MM` in its zone (so an edit holds across daylight
 * saving); a one-off block's are instants. `occurrenceDate` (its original local date) names the occurrence `this`
 * and `this_and_following` start at.
 */
export interface BlockEdit {
  scope?: string | undefined;
  occurrenceDate?: string | undefined;
  startTime?: string | undefined;
  endTime?: string | undefined;
  startsAt?: Date | undefined;
  endsAt?: Date | undefined;
  reason?: string | undefined;
}

/** What an edit answers: the block as it is now, the one a split created, and the appointments newly covered. */
export interface BlockEditResult {
  block: ProviderBlock;
  created: ProviderBlock | null;
  overlapping: Appointment[];
  overlappingCount: number;
}

const DAY_MS = 86_400_000;
const HH_MM = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;
/** How far ahead an edit looks for appointments it newly covers and time it frees: the block's span, at most. */
const LISTED_OVERLAPS = 100;

const localDate = (at: Date, zone: string) => isoInZone(at, zone).slice(0, 10);
const localTime = (at: Date, zone: string) => isoInZone(at, zone).slice(11, 16);
function at(zone: string, date: string, time: string): Date {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  const [hour, minute] = time.split(":").map(Number) as [number, number];
  return zonedInstant(zone, { year, month, day, hour, minute });
}

/** The block's span end with its exceptions: an occurrence moved later than the rule's last one still counts. */
function spanEnd(block: Pick<ProviderBlock, "startsAt" | "endsAt" | "timeZone" | "rrule" | "exceptions">): Date {
  const ends = block.exceptions.map((e) => e.endsAt?.getTime() ?? 0);
  return new Date(Math.max(lastEnd(block).getTime(), ...ends));
}

/**
 * Edits and scoped deletions of blocks, v1's modify-block and series edits (issue 49): `this` occurrence becomes an
 * exception of its series, `this_and_following` splits the series at it (the old part ends, a new series starts),
 * `all` changes the series (exceptions keep what they changed themselves). Each runs under the provider's schedule
 * lock with a compare-and-set on the block's version; appointments an edit newly covers are listed, never
 * cancelled, and time it frees is announced to the waitlist.
 */
export class BlockSeriesService {
  constructor(private readonly deps: { storage: Storage<SchedulingServiceRepositories>; clock: Clock }) {}

  private async target(principal: Principal, id: number): Promise<{ block: ProviderBlock; provider: Provider }> {
    const block = await this.deps.storage.repositories.blocks.findById(principal.organisationId, id);
    const provider = block && (await reachableProvider(this.deps.storage, principal, block.providerId));
    if (!block || block.removedAt !== null || !provider) throw blockNotFound(id);
    return { block, provider };
  }

  /** The scope and occurrence an edit names, checked: 400 naming `scope` or `occurrenceDate`. */
  private scopeOf(block: ProviderBlock, edit: Pick<BlockEdit, "scope" | "occurrenceDate">): BlockEditScope {
    const issues: ValidationIssue[] = [];
    if (!block.rrule) {
      if (edit.scope !== undefined && edit.scope !== "all")
        issues.push({
          field: "scope",
          reason: "a one-off block has one occurrence: omit scope, or send all",
          value: edit.scope,
        });
      if (issues.length) throw DomainError.validation(issues);
      return "all";
    }
    const scope = edit.scope as BlockEditScope;
    if (!(BLOCK_EDIT_SCOPES as readonly unknown[]).includes(scope))
      throw DomainError.validation([
        { field: "scope", reason: `must be one of ${BLOCK_EDIT_SCOPES.join(", ")}`, value: edit.scope ?? null },
      ]);
    if (scope !== "all") {
      const date = edit.occurrenceDate;
      if (typeof date !== "string" || !isCalendarDate(date))
        throw DomainError.validation([
          { field: "occurrenceDate", reason: "is required with this scope: YYYY-MM-DD", value: date ?? null },
        ]);
      if (!occurrenceOn(block, date))
        throw DomainError.validation([{ field: "occurrenceDate", reason: "is not a date of the series", value: date }]);
      if (block.exceptions.some((e) => e.occurrenceDate === date && e.kind === "cancelled"))
        throw DomainError.validation([
          {
            field: "occurrenceDate",
            reason: "is a cancelled occurrence: there is nothing left to change",
            value: date,
          },
        ]);
    }
    return scope;
  }

  async edit(principal: Principal, id: number, edit: BlockEdit): Promise<BlockEditResult> {
    const { block: seen, provider } = await this.target(principal, id);
    // Named before the transaction, whose start records the audit entry; checked again on the block as it is then.
    noteAuditedQualifier(this.scopeOf(seen, edit));
    const now = this.deps.clock.now();
    return this.deps.storage.transaction(async (tx) => {
      // Under the provider's lock, the block as it is now: a concurrent edit committed before is built upon.
      await tx.appointments.lockDoctorSchedule(principal.organisationId, provider.userId);
      const block = await this.live(tx, principal, id);
      const scope = this.scopeOf(block, edit);
      this.checkFields(block, edit);
      let next: ProviderBlock;
      let created: ProviderBlock | null = null;
      if (!block.rrule) next = this.oneOff(block, edit);
      else if (scope === "this") next = this.thisOccurrence(block, edit);
      else if (scope === "all") next = this.wholeSeries(block, edit);
      else {
        const split = this.split(block, edit, now);
        next = split.head;
        if (split.tail) created = await tx.blocks.insert(split.tail);
      }
      if (next.exceptions.length > BLOCK_LIMITS.maxExceptions)
        throw DomainError.validation([
          {
            field: "occurrenceDate",
            reason: `a series holds at most ${BLOCK_LIMITS.maxExceptions} changed occurrences: split it (this_and_following) or edit all`,
          },
        ]);
      await this.write(tx, next);
      const stored = { ...next, version: next.version + 1 };
      const after = [stored, ...(created ? [created] : [])];
      await this.announceFreed(tx, principal, block, after, now);
      const overlapping = await this.newlyCovered(tx, principal, provider, block, after);
      return {
        block: stored,
        created,
        overlapping: overlapping.slice(0, LISTED_OVERLAPS),
        overlappingCount: overlapping.length,
      };
    });
  }

  /** The block read again inside the transaction (after the lock): gone or removed meanwhile is 404. */
  private async live(tx: SchedulingServiceRepositories, principal: Principal, id: number): Promise<ProviderBlock> {
    const block = await tx.blocks.findById(principal.organisationId, id);
    if (!block || block.removedAt !== null) throw blockNotFound(id);
    return block;
  }

  /** The compare-and-set: under the lock it holds; if another writer came first anyway, 409 rather than a 404. */
  private async write(tx: SchedulingServiceRepositories, next: ProviderBlock): Promise<void> {
    if (!(await tx.blocks.update(next)))
      throw systemError("VERSION_CONFLICT", "The block changed while it was edited; read it and try again", {
        block_id: next.id,
      });
  }

  /**
   * The occurrences of the providers' blocks in [from, to) (at most 366 days), each with its block, series and
   * original date: a recurring block is listed as its occurrences, exceptions applied.
   */
  async occurrences(
    principal: Principal,
    query: { doctorId?: number | undefined; clinicId?: number | undefined; from: Date; to: Date },
  ): Promise<Array<SeriesOccurrence & { block: ProviderBlock }>> {
    if (!(query.to > query.from))
      throw DomainError.invalidParameter("to", query.to.toISOString(), "must be after from");
    if (query.to.getTime() - query.from.getTime() > BLOCK_LIMITS.maxListDays * DAY_MS)
      throw DomainError.invalidParameter(
        "to",
        query.to.toISOString(),
        `must be at most ${BLOCK_LIMITS.maxListDays} days after from`,
      );
    const r = this.deps.storage.repositories;
    const access = clinicAccess(principal);
    const providers = (await r.organisations.listProviders(principal.organisationId)).filter(
      (p) =>
        (query.doctorId === undefined || p.userId === query.doctorId) &&
        (query.clinicId === undefined || p.clinicIds.includes(query.clinicId)) &&
        access.canSeeAny(p.clinicIds),
    );
    const blocks = await r.blocks.listBetween(
      principal.organisationId,
      providers.map((p) => p.id),
      query.from,
      new Date(query.to.getTime() + EXCEPTION_REACH_MS),
    );
    return blocks
      .flatMap((block) =>
        block.rrule
          ? seriesOccurrences(block, block.exceptions, query.from, query.to).map((o) => ({ ...o, block }))
          : [
              {
                occurrenceDate: localDate(block.startsAt, "UTC"),
                start: block.startsAt,
                end: block.endsAt,
                reason: block.reason,
                modified: false,
                block,
              },
            ],
      )
      .filter((o) => o.start < query.to && o.end > query.from)
      .sort((a, b) => a.start.getTime() - b.start.getTime() || a.block.id - b.block.id);
  }

  /** Deletes this occurrence (an exception), this and the following (the series ends before it), or all of it. */
  async remove(
    principal: Principal,
    id: number,
    which: Pick<BlockEdit, "scope" | "occurrenceDate">,
  ): Promise<ProviderBlock> {
    const { block: seen, provider } = await this.target(principal, id);
    noteAuditedQualifier(this.scopeOf(seen, which));
    const now = this.deps.clock.now();
    return this.deps.storage.transaction(async (tx) => {
      await tx.appointments.lockDoctorSchedule(principal.organisationId, provider.userId);
      const block = await this.live(tx, principal, id);
      const scope = this.scopeOf(block, which);
      const date = which.occurrenceDate as string;
      let next: ProviderBlock | null = null;
      if (scope === "this") {
        const exceptions = block.exceptions.filter((e) => e.occurrenceDate !== date);
        exceptions.push({ occurrenceDate: date, kind: "cancelled", startsAt: null, endsAt: null, reason: null });
        next = { ...block, exceptions: sorted(exceptions) };
      } else if (scope === "this_and_following") {
        const split = splitSeries(block, date);
        if (split?.head) {
          const exceptions = block.exceptions.filter((e) => e.occurrenceDate < date);
          next = { ...block, rrule: split.head.rrule, exceptions };
          next.lastEndsAt = spanEnd(next);
        }
      }
      if (next) {
        if (next.exceptions.length > BLOCK_LIMITS.maxExceptions)
          throw DomainError.validation([
            {
              field: "occurrenceDate",
              reason: `a series holds at most ${BLOCK_LIMITS.maxExceptions} changed occurrences: end it (this_and_following) instead`,
            },
          ]);
        await this.write(tx, next);
        await this.announceFreed(tx, principal, block, [next], now);
        return { ...next, version: next.version + 1 };
      }
      if (!(await tx.blocks.remove(principal.organisationId, id, now))) throw blockNotFound(id);
      await this.announceFreed(tx, principal, block, [], now);
      return { ...block, removedAt: now };
    });
  }

  private checkFields(block: ProviderBlock, edit: BlockEdit): void {
    const issues: ValidationIssue[] = [];
    if (edit.reason !== undefined && (edit.reason.trim() === "" || edit.reason.trim().length > BLOCK_LIMITS.reasonMax))
      issues.push({ field: "reason", reason: `must be 1 to ${BLOCK_LIMITS.reasonMax} characters`, value: edit.reason });
    if (block.rrule) {
      for (const field of ["startTime", "endTime"] as const)
        if (edit[field] !== undefined && !HH_MM.test(edit[field] as string))
          issues.push({ field, reason: "must be a wall-clock time HH:MM in the block's zone", value: edit[field] });
      if (edit.startsAt !== undefined || edit.endsAt !== undefined)
        issues.push({ field: "startsAt", reason: "a recurring block's times are startTime and endTime (HH:MM)" });
    } else if (edit.startTime !== undefined || edit.endTime !== undefined)
      issues.push({ field: "startTime", reason: "a one-off block's times are instants (startsAt, endsAt)" });
    const changes = ["startTime", "endTime", "startsAt", "endsAt", "reason"].filter(
      (f) => edit[f as keyof BlockEdit] !== undefined,
    );
    if (changes.length === 0) issues.push({ field: "reason", reason: "an edit changes the times or the reason" });
    if (issues.length) throw DomainError.validation(issues);
  }

  private oneOff(block: ProviderBlock, edit: BlockEdit): ProviderBlock {
    const startsAt = edit.startsAt ?? block.startsAt;
    const endsAt = edit.endsAt ?? block.endsAt;
    if (!(endsAt > startsAt)) throw DomainError.validation([{ field: "endsAt", reason: "must be after the start" }]);
    if (endsAt.getTime() - startsAt.getTime() > BLOCK_LIMITS.maxOneOffDays * DAY_MS)
      throw DomainError.validation([
        { field: "endsAt", reason: `must be at most ${BLOCK_LIMITS.maxOneOffDays} days after the start` },
      ]);
    return { ...block, startsAt, endsAt, lastEndsAt: endsAt, reason: edit.reason?.trim() ?? block.reason };
  }

  /**
   * `this`: the occurrence becomes (or stays) an exception holding what differs from the series: its times (both,
   * when either changed, so a later edit of the series can never leave it ending before it starts) and its reason.
   */
  private thisOccurrence(block: ProviderBlock, edit: BlockEdit): ProviderBlock {
    const zone = block.timeZone as string;
    const date = edit.occurrenceDate as string;
    const original = occurrenceOn(block, date) as Interval;
    const existing = block.exceptions.find((e) => e.occurrenceDate === date && e.kind === "modified");
    const start = edit.startTime ? at(zone, date, edit.startTime) : (existing?.startsAt ?? original.start);
    const endDate = localDate(original.end, zone) > date ? nextDay(date) : date;
    const end = edit.endTime ? at(zone, endDate, edit.endTime) : (existing?.endsAt ?? original.end);
    if (!(end > start)) throw DomainError.validation([{ field: "endTime", reason: "must be after the start" }]);
    const reason = edit.reason?.trim() ?? existing?.reason ?? null;
    const moved = start.getTime() !== original.start.getTime() || end.getTime() !== original.end.getTime();
    const exception: BlockException = {
      occurrenceDate: date,
      kind: "modified",
      startsAt: moved ? start : null,
      endsAt: moved ? end : null,
      reason: reason === block.reason ? null : reason,
    };
    const others = block.exceptions.filter((e) => e.occurrenceDate !== date);
    const unchanged = exception.startsAt === null && exception.reason === null;
    const next = { ...block, exceptions: sorted(unchanged ? others : [...others, exception]) };
    return { ...next, lastEndsAt: spanEnd(next) };
  }

  /**
   * `all`: the series' times (its wall clock, from its first day; the end on the next day when the series crosses
   * midnight) and reason; exceptions keep what they changed. A rule bounded by UNTIL is bounded by COUNT from then
   * on, so moving the times later never drops the last occurrence past UNTIL's instant.
   */
  private wholeSeries(block: ProviderBlock, edit: BlockEdit): ProviderBlock {
    const zone = block.timeZone as string;
    const first = localDate(block.startsAt, zone);
    const endFirst = localDate(block.endsAt, zone) > first ? nextDay(first) : first;
    const startsAt = at(zone, first, edit.startTime ?? localTime(block.startsAt, zone));
    const endsAt = at(zone, endFirst, edit.endTime ?? localTime(block.endsAt, zone));
    if (!(endsAt > startsAt)) throw DomainError.validation([{ field: "endTime", reason: "must be after the start" }]);
    const rrule = startsAt.getTime() === block.startsAt.getTime() ? block.rrule : countBounded(block);
    const next = { ...block, startsAt, endsAt, rrule, reason: edit.reason?.trim() ?? block.reason };
    return { ...next, lastEndsAt: spanEnd(next) };
  }

  /**
   * `this_and_following`: the series ends before the occurrence (its rule bounded by COUNT), a new series starts at
   * it with the change and the later exceptions. At the first occurrence it is the whole series.
   */
  private split(
    block: ProviderBlock,
    edit: BlockEdit,
    now: Date,
  ): { head: ProviderBlock; tail: Omit<ProviderBlock, "id"> | null } {
    const date = edit.occurrenceDate as string;
    const split = splitSeries(block, date);
    if (!split?.head) return { head: this.wholeSeries(block, edit), tail: null };
    const head = {
      ...block,
      rrule: split.head.rrule,
      exceptions: block.exceptions.filter((e) => e.occurrenceDate < date),
    };
    const tailBlock = {
      ...block,
      startsAt: split.tail.startsAt,
      endsAt: split.tail.endsAt,
      rrule: split.tail.rrule,
      exceptions: block.exceptions.filter((e) => e.occurrenceDate >= date),
    };
    const changed = this.wholeSeries(tailBlock, edit);
    const { id: _, ...tail } = {
      ...changed,
      seriesId: block.seriesId ?? block.id,
      version: 1,
      createdAt: now,
      removedAt: null,
    };
    return { head: { ...head, lastEndsAt: spanEnd(head) }, tail };
  }

  /** Occurrences the edit took away (within the next 31 days) are offered to the waitlist. */
  private async announceFreed(
    tx: SchedulingServiceRepositories,
    principal: Principal,
    before: ProviderBlock,
    after: readonly ProviderBlock[],
    now: Date,
  ): Promise<void> {
    const until = new Date(now.getTime() + 31 * DAY_MS);
    const still = after.flatMap((b) => blockOccurrences(b, now, until));
    for (const o of blockOccurrences(before, now, until).slice(0, 62)) {
      const covered = still.some((s) => s.start <= o.start && s.end >= o.end);
      if (!covered)
        await queueFreedTime(
          tx,
          {
            organisationId: principal.organisationId,
            providerId: before.providerId,
            clinicId: null,
            startsAt: o.start,
            endsAt: o.end,
          },
          now,
        );
    }
  }

  /** Booked appointments the edited block covers that it did not cover before (a warning: none is cancelled). */
  private async newlyCovered(
    tx: SchedulingServiceRepositories,
    principal: Principal,
    provider: Provider,
    before: ProviderBlock,
    after: readonly ProviderBlock[],
  ): Promise<Appointment[]> {
    const from = new Date(Math.min(...after.map((b) => b.startsAt.getTime())) - DAY_MS);
    const to = new Date(Math.max(...after.map((b) => b.lastEndsAt.getTime())));
    const { appointments } = await tx.appointments.list({
      organisationId: principal.organisationId,
      doctorId: provider.userId,
      inClinics: clinicAccess(principal).only,
      startsFrom: from,
      startsBefore: to,
      statuses: [...SLOT_HOLDING_STATUSES],
      limit: 10_000,
      offset: 0,
    });
    return appointments.filter(
      (a) =>
        after.some((b) => blockOccurrences(b, a.startsAt, a.endsAt).length > 0) &&
        blockOccurrences(before, a.startsAt, a.endsAt).length === 0,
    );
  }
}

const nextDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);

/** The block's rule with UNTIL replaced by the COUNT of occurrences it gives (unchanged when it has a COUNT). */
function countBounded(block: ProviderBlock): string | null {
  if (!block.rrule) return null;
  const options = ruleOptions(block.rrule);
  if (!options.until) return block.rrule;
  const count = blockOccurrences({ ...block, exceptions: [] }, block.startsAt, lastEnd(block)).length;
  const { dtstart: _, ...rest } = { ...options, until: null, count };
  return RRule.optionsToString(rest).replace(/^RRULE:/, "");
}

const sorted = (exceptions: BlockException[]) =>
  [...exceptions].sort((a, b) => a.occurrenceDate.localeCompare(b.occurrenceDate));
