import { DateTime } from "luxon";
import { SLOT_HOLDING_STATUSES } from "../appointments/appointment-state-machine.js";
import type { Principal } from "../auth/principal.js";
import type { Clock } from "../kernel/clock.js";
import { DomainError, type ValidationIssue } from "../kernel/domain-error.js";
import { appointmentTypeNotFound } from "../catalog/catalog-admin-service.js";
import type { Clinic, Provider } from "../organisations/organisation.js";
import { clinicNotFound, providerNotFound } from "../organisations/organisation-errors.js";
import { findReachableClinic } from "../organisations/reachable-clinic.js";
import type { Storage } from "../kernel/storage.js";
import type { SchedulingServiceRepositories } from "./scheduling-service-repositories.js";
import { blockOccurrences } from "./block-series.js";
import { EXCEPTION_REACH_MS } from "./provider-block.js";
import { shiftOf } from "./provider-schedule.js";
import { type Interval, occurrences, type Shift } from "./shift.js";
import { bookableSlots } from "./slots.js";
import { dayStart } from "./zone-cache.js";

export interface SlotQuery {
  providerIds: readonly number[];
  clinicId: number;
  /** Its duration sets the slot length; or slotLength (minutes). */
  appointmentTypeId?: number | undefined;
  slotLength?: number | undefined;
  /** Minutes between candidate starts; default the slot length. */
  slotInterval?: number | undefined;
  /** YYYY-MM-DD in the clinic's zone; default today there. */
  startDate?: string | undefined;
  days?: number | undefined;
}

export interface ProviderSlots {
  providerId: number;
  clinicId: number;
  timeZone: string;
  slots: Date[];
  /** With no slot in the range: the first day (clinic's calendar) with one, searching up to 90 days ahead; else null. */
  nextAvailableDate: string | null;
}

export const SLOT_LIMITS = { maxDays: 31, maxProviders: 20, searchDays: 90, minLength: 5, maxLength: 480 } as const;

/**
 * Bookable slots (spec 4.7 GET /v2/slots): where an appointment of the length fits inside a provider's working
 * hours at the clinic, outside their blocks and outside their appointments that hold time (at any clinic; at this
 * clinic only when it does not allow double booking), not in the past.
 */
export class SlotService {
  constructor(private readonly deps: { storage: Storage<SchedulingServiceRepositories>; clock: Clock }) {}

  async find(principal: Principal, query: SlotQuery): Promise<ProviderSlots[]> {
    const organisationId = principal.organisationId;
    const r = this.deps.storage.repositories;
    const issues: ValidationIssue[] = [];
    const days = query.days ?? 7;
    if (!Number.isInteger(days) || days < 1 || days > SLOT_LIMITS.maxDays)
      issues.push({ field: "days", reason: `must be 1 to ${SLOT_LIMITS.maxDays}`, value: days });
    if (query.providerIds.length === 0 || query.providerIds.length > SLOT_LIMITS.maxProviders)
      issues.push({ field: "providerIds", reason: `must name 1 to ${SLOT_LIMITS.maxProviders} providers` });
    if ((query.appointmentTypeId === undefined) === (query.slotLength === undefined))
      issues.push({ field: "slotLength", reason: "give appointment_type_id or slot_length (one of them)" });
    if (issues.length > 0) throw DomainError.validation(issues);

    const clinic = await findReachableClinic(r, principal, query.clinicId);
    if (!clinic) throw clinicNotFound(query.clinicId);
    let length = query.slotLength as number;
    if (query.appointmentTypeId !== undefined) {
      const type = await r.catalog.findAppointmentCategory(organisationId, query.appointmentTypeId);
      if (!type) throw appointmentTypeNotFound(query.appointmentTypeId);
      length = type.durationMinutes;
    }
    const interval = query.slotInterval ?? length;
    const today = DateTime.fromJSDate(this.deps.clock.now(), { zone: clinic.timeZone }).toISODate() as string;
    const startDate = query.startDate ?? today;
    if (!DateTime.fromISO(startDate, { zone: clinic.timeZone }).isValid)
      throw DomainError.validation([{ field: "startDate", reason: "must be a date (YYYY-MM-DD)", value: startDate }]);

    // One query for the organisation's providers rather than one per provider asked for.
    const known = new Map(
      (query.providerIds.length > 1 ? await r.organisations.listProviders(organisationId) : []).map((p) => [p.id, p]),
    );
    const providers: Provider[] = [];
    for (const providerId of query.providerIds) {
      const provider = known.get(providerId) ?? (await r.organisations.findProviderById(organisationId, providerId));
      if (!provider) throw providerNotFound(providerId);
      providers.push(provider);
    }
    const window = { length, interval };
    const found = await this.slotsIn(organisationId, providers, clinic, { ...window, startDate, days });
    // With no slot in the range: further ahead, a month at a time, up to 90 days from the start date.
    const next = new Map<number, string>();
    for (let offset = days; offset < SLOT_LIMITS.searchDays; offset += SLOT_LIMITS.maxDays) {
      const waiting = providers.filter((p) => found.get(p.id)?.length === 0 && !next.has(p.id));
      if (waiting.length === 0) break;
      const from = DateTime.fromISO(startDate, { zone: "UTC" }).plus({ days: offset }).toISODate() as string;
      const n = Math.min(SLOT_LIMITS.maxDays, SLOT_LIMITS.searchDays - offset);
      const ahead = await this.slotsIn(organisationId, waiting, clinic, { ...window, startDate: from, days: n });
      for (const [id, slots] of ahead)
        if (slots[0]) next.set(id, DateTime.fromJSDate(slots[0], { zone: clinic.timeZone }).toISODate() as string);
    }
    return providers.map((p) => ({
      providerId: p.id,
      clinicId: clinic.id,
      timeZone: clinic.timeZone,
      slots: found.get(p.id) ?? [],
      nextAvailableDate: next.get(p.id) ?? null,
    }));
  }

  /** Slots of each provider over the days: the appointments of all of them in one query. */
  private async slotsIn(
    organisationId: number,
    providers: readonly Provider[],
    clinic: Clinic,
    q: { startDate: string; days: number; length: number; interval: number },
  ): Promise<Map<number, Date[]>> {
    const r = this.deps.storage.repositories;
    const from = dayStart(clinic.timeZone, q.startDate);
    const to = dayStart(clinic.timeZone, q.startDate, q.days);
    const ids = providers.map((p) => p.id);
    // Everyone's appointments, schedules, blocks and waitlist holds: one query each, sent together.
    const [held, schedules, blocks, holds] = await Promise.all([
      r.appointments.listHeldTimes({
        organisationId,
        doctorIds: providers.map((p) => p.userId),
        // An appointment lasts at most 24 hours: one that started the day before may still hold time.
        startsFrom: new Date(from.getTime() - 86_400_000),
        startsBefore: to,
        statuses: SLOT_HOLDING_STATUSES,
      }),
      r.schedules.listInForce(organisationId, ids, q.startDate),
      r.blocks.listBetween(organisationId, ids, from, new Date(to.getTime() + EXCEPTION_REACH_MS)),
      // Time a pending waitlist offer holds is not bookable either, until the offer is accepted or expires.
      r.waitlist.listHolds(organisationId, ids, from, to, this.deps.clock.now()),
    ]);
    // Each provider's busy time, grouped once (by v2 id; appointments carry the doctor's user id).
    const busyOf = new Map<number, Interval[]>(providers.map((p) => [p.id, []]));
    const byUser = new Map(providers.map((p) => [p.userId, busyOf.get(p.id) as Interval[]]));
    // Providers often share hours and recurring blocks: each distinct one is expanded once per search.
    const expanded = new Map<string, Interval[]>();
    const once = (key: string, expand: () => Interval[]) => {
      let found = expanded.get(key);
      if (!found) expanded.set(key, (found = expand()));
      return found;
    };
    const occurrencesOf = (s: Shift, a: Date, b: Date) =>
      once(
        `s|${s.weekdays}|${s.start}|${s.end}|${s.effectiveFrom}|${s.effectiveUntil}|${s.rrule}|${a.getTime()}|${b.getTime()}`,
        () => occurrences(s, a, b),
      );
    for (const block of blocks)
      busyOf
        .get(block.providerId)
        ?.push(
          ...once(`b|${block.startsAt.getTime()}|${block.endsAt.getTime()}|${block.timeZone}|${block.rrule}`, () =>
            blockOccurrences(block, from, to),
          ),
        );
    for (const h of holds) busyOf.get(h.providerId)?.push({ start: h.startsAt, end: h.endsAt });
    for (const a of held)
      if (!(clinic.allowDoubleBooking && a.clinicId === clinic.id))
        byUser.get(a.doctorId)?.push({ start: a.startsAt, end: a.endsAt });
    const out = new Map<number, Date[]>();
    for (const provider of providers) {
      const shifts = schedules
        .filter((s) => s.providerId === provider.id && s.clinicId === clinic.id)
        .map((s) => shiftOf(s, clinic.timeZone));
      if (shifts.length === 0) {
        out.set(provider.id, []);
        continue;
      }
      const busy = busyOf.get(provider.id) as Interval[];
      out.set(
        provider.id,
        bookableSlots({
          shifts,
          busy,
          timeZone: clinic.timeZone,
          startDate: q.startDate,
          days: q.days,
          slotLength: q.length,
          slotInterval: q.interval,
          notBefore: this.deps.clock.now(),
          occurrencesOf,
        }),
      );
    }
    return out;
  }
}
