import { schedulingError } from "./scheduling-errors.js";
import { DateTime } from "luxon";
import { clinicAccess } from "../auth/clinic-access.js";
import type { Principal } from "../auth/principal.js";
import type { Clock } from "../kernel/clock.js";
import { DomainError } from "../kernel/domain-error.js";
import type { Provider } from "../organisations/organisation.js";
import { clinicNotFound, providerNotFound } from "../organisations/organisation-errors.js";
import { findReachableClinic } from "../organisations/reachable-clinic.js";
import { toPageWindow } from "../kernel/paging.js";
import type { Storage } from "../kernel/storage.js";
import type { SchedulingServiceRepositories } from "./scheduling-service-repositories.js";
import {
  type ProviderSchedule,
  SCHEDULE_LIMITS,
  type ScheduleDraft,
  type ScheduleListQuery,
  shiftOf,
} from "./provider-schedule.js";
import { firstOverlap, type Shift, shiftIssues } from "./shift.js";

const scheduleNotFound = (id: number) =>
  schedulingError("SCHEDULE_NOT_FOUND", "Schedule not found", { schedule_id: id });

/** The day before a date (YYYY-MM-DD), by calendar: the replaced schedule's last day. */
const dayBefore = (date: string) => DateTime.fromISO(date, { zone: "UTC" }).minus({ days: 1 }).toISODate() as string;

/** Providers' working hours: recurring shifts per clinic, replaced rather than edited, never overlapping. */
export class ScheduleService {
  constructor(private readonly deps: { storage: Storage<SchedulingServiceRepositories>; clock: Clock }) {}

  /**
   * Adds a shift (or a new version of one: `replacesId`). Refused with 409 SCHEDULE_OVERLAP when it would overlap
   * another shift of the provider, at any clinic, naming that shift and the first moment they share.
   */
  async create(principal: Principal, providerId: number, draft: ScheduleDraft): Promise<ProviderSchedule> {
    const organisationId = principal.organisationId;
    // The shape first; the clinic's zone (checked when the clinic was saved) stands in until the clinic is read.
    const shape: Shift = {
      timeZone: "UTC",
      weekdays: [...(draft.weekdays ?? [])],
      start: draft.startTime,
      end: draft.endTime,
      effectiveFrom: draft.effectiveFrom,
      effectiveUntil: draft.effectiveUntil ?? null,
      rrule: draft.rrule?.trim() || null,
    };
    const issues = shiftIssues(shape);
    if (issues.length > 0) throw DomainError.validation(issues);

    const provider = await this.deps.storage.repositories.organisations.findProviderById(organisationId, providerId);
    if (!provider) throw providerNotFound(providerId);
    const now = this.deps.clock.now();
    return this.deps.storage.transaction(async (tx) => {
      // The provider's lock first (the booking contract): concurrent shifts of one provider are decided one by one.
      if (!(await tx.appointments.lockDoctorSchedule(organisationId, provider.userId)))
        throw providerNotFound(providerId);
      const clinic = await findReachableClinic(tx, principal, draft.clinicId);
      if (!clinic) throw clinicNotFound(draft.clinicId);
      assertWorksAt(provider, draft.clinicId);
      const replaced = draft.replacesId ? await this.replaceable(tx, principal, providerId, draft) : null;
      const shift: Shift = { ...shape, timeZone: clinic.timeZone };
      await assertNoOverlap(tx, organisationId, providerId, shift, replaced?.id);
      const created = await tx.schedules.insert({
        organisationId,
        providerId,
        clinicId: draft.clinicId,
        weekdays: [...shift.weekdays],
        startTime: draft.startTime,
        endTime: draft.endTime,
        effectiveFrom: draft.effectiveFrom,
        effectiveUntil: shift.effectiveUntil,
        rrule: shift.rrule,
        replacesId: replaced?.id ?? null,
        replacedById: null,
        createdAt: now,
        updatedAt: now,
      });
      if (replaced) {
        const lastDay = dayBefore(draft.effectiveFrom);
        const until =
          replaced.effectiveUntil !== null && replaced.effectiveUntil < lastDay ? replaced.effectiveUntil : lastDay;
        await tx.schedules.end(organisationId, replaced.id, until, created.id, now);
      }
      return created;
    });
  }

  async list(
    principal: Principal,
    providerId: number,
    query: ScheduleListQuery,
  ): Promise<{ schedules: ProviderSchedule[]; total: number; page: number; perPage: number }> {
    const organisationId = principal.organisationId;
    const repositories = this.deps.storage.repositories;
    if (!(await repositories.organisations.findProviderById(organisationId, providerId)))
      throw providerNotFound(providerId);
    const { page, size, limit, offset } = toPageWindow(query.page, query.perPage, {
      defaultSize: SCHEDULE_LIMITS.defaultPerPage,
      maxSize: SCHEDULE_LIMITS.maxPerPage,
    });
    const today = this.deps.clock.now().toISOString().slice(0, 10);
    const found = await repositories.schedules.list(organisationId, providerId, {
      clinicId: query.clinicId,
      inClinics: clinicAccess(principal).only,
      endingOnOrAfter: (query.status ?? "current") === "current" ? today : undefined,
      limit,
      offset,
    });
    return { ...found, page, perPage: size };
  }

  async get(principal: Principal, id: number): Promise<ProviderSchedule> {
    const found = await this.deps.storage.repositories.schedules.findById(principal.organisationId, id);
    if (!found || !clinicAccess(principal).canSee(found.clinicId)) throw scheduleNotFound(id);
    return found;
  }

  /** The schedule a new version replaces: the provider's, not replaced already, starting before the new one. */
  private async replaceable(
    tx: SchedulingServiceRepositories,
    principal: Principal,
    providerId: number,
    draft: ScheduleDraft,
  ): Promise<ProviderSchedule> {
    const id = draft.replacesId as number;
    const old = await tx.schedules.findById(principal.organisationId, id);
    if (!old || old.providerId !== providerId || !clinicAccess(principal).canSee(old.clinicId))
      throw scheduleNotFound(id);
    if (old.replacedById !== null)
      throw schedulingError(
        "SCHEDULE_ALREADY_REPLACED",
        `Schedule ${id} was replaced by schedule ${old.replacedById}`,
        {
          schedule_id: id,
          replaced_by_schedule_id: old.replacedById,
        },
      );
    if (draft.effectiveFrom <= old.effectiveFrom)
      throw DomainError.validation([
        {
          field: "effectiveFrom",
          reason: `must be after the start (${old.effectiveFrom}) of the schedule it replaces`,
          value: draft.effectiveFrom,
        },
      ]);
    return old;
  }
}

function assertWorksAt(provider: Provider, clinicId: number) {
  if (!provider.clinicIds.includes(clinicId))
    throw DomainError.validation([
      { field: "clinicId", reason: "is not a clinic the provider works at (their clinic_ids)", value: clinicId },
    ]);
}

/** The provider's other shifts in force from the new one's start, each in its own clinic's zone, must not meet it. */
async function assertNoOverlap(
  tx: SchedulingServiceRepositories,
  organisationId: number,
  providerId: number,
  shift: Shift,
  replacedId: number | undefined,
) {
  const zones = new Map<number, string>();
  for (const other of await tx.schedules.listInForce(organisationId, [providerId], shift.effectiveFrom)) {
    if (other.id === replacedId) continue;
    if (!zones.has(other.clinicId))
      zones.set(other.clinicId, (await tx.organisations.findClinic(organisationId, other.clinicId))?.timeZone ?? "UTC");
    const overlap = firstOverlap(shift, shiftOf(other, zones.get(other.clinicId) as string));
    if (overlap)
      throw schedulingError(
        "SCHEDULE_OVERLAP",
        `The shift overlaps schedule ${other.id} (clinic ${other.clinicId}) from ${overlap.start.toISOString()}`,
        {
          conflicting_schedule_id: other.id,
          clinic_id: other.clinicId,
          overlap_start: overlap.start.toISOString(),
          overlap_end: overlap.end.toISOString(),
        },
      );
  }
}
