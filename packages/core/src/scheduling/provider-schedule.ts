import { RRULE_MAX_LENGTH } from "./recurrence.js";
import type { Shift, Weekday } from "./shift.js";

/**
 * A provider's working hours at one clinic (spec 4.7 /v2/providers/{id}/schedules): a recurring shift in the
 * clinic's local time. A schedule is never edited: a new version replaces it (`replacesId`) and the old one ends the
 * day before the new one starts (`replacedById`, `effectiveUntil`), so what was planned when stays readable.
 */
export interface ProviderSchedule {
  id: number;
  organisationId: number;
  /** The provider's v2 id (providers.id). */
  providerId: number;
  clinicId: number;
  weekdays: Weekday[];
  /** HH:MM in the clinic's zone; the end is later the same day. */
  startTime: string;
  endTime: string;
  /** Dates (YYYY-MM-DD), inclusive; no end: until replaced. */
  effectiveFrom: string;
  effectiveUntil: string | null;
  /** An RFC 5545 RRULE (without DTSTART) when the shift is not simply weekly, e.g. every other week. */
  rrule: string | null;
  replacesId: number | null;
  replacedById: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface ScheduleDraft {
  clinicId: number;
  weekdays?: readonly Weekday[] | undefined;
  startTime: string;
  endTime: string;
  effectiveFrom: string;
  effectiveUntil?: string | null | undefined;
  rrule?: string | null | undefined;
  /** The schedule this one replaces: it ends the day before this one starts. */
  replacesId?: number | null | undefined;
}

export interface ScheduleListQuery {
  clinicId?: number | undefined;
  /** current (default): not ended before today; all: history too. */
  status?: "current" | "all" | undefined;
  page?: number | undefined;
  perPage?: number | undefined;
}

export const SCHEDULE_LIMITS = { defaultPerPage: 20, maxPerPage: 100, maxRruleLength: RRULE_MAX_LENGTH } as const;

/** The schedule as the scheduling rules read it, in its clinic's zone. */
export const shiftOf = (schedule: ProviderSchedule, timeZone: string): Shift => ({
  timeZone,
  weekdays: schedule.weekdays,
  start: schedule.startTime,
  end: schedule.endTime,
  effectiveFrom: schedule.effectiveFrom,
  effectiveUntil: schedule.effectiveUntil,
  rrule: schedule.rrule,
});
