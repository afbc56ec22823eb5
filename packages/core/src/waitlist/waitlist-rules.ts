import { DateTime } from "luxon";
import { PAYMENT_MODES } from "../cases/payment-mode.js";
import type { ValidationIssue } from "../kernel/domain-error.js";
import { WEEKDAYS, type Weekday } from "../scheduling/shift.js";
import {
  type TimeWindow,
  WAITLIST_LIMITS,
  WAITLIST_PRIORITIES,
  type WaitlistPriority,
  type WaitlistRequest,
  type WaitlistRequestDraft,
} from "./waitlist.js";

const HHMM = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;
const isId = (v: unknown) => Number.isSafeInteger(v) && (v as number) > 0;
const isDate = (v: unknown) =>
  typeof v === "string" && /^\d{4}-\d{2}-\d{2}$/.test(v) && DateTime.fromISO(v, { zone: "UTC" }).isValid;

/** Every problem of a request as it will be stored (a draft, or a stored request with changes applied). */
export function waitlistRequestIssues(r: WaitlistRequestDraft): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (!isId(r.patientId)) issues.push({ field: "patientId", reason: "must be a positive integer", value: r.patientId });
  if (!isId(r.appointmentTypeId))
    issues.push({ field: "appointmentTypeId", reason: "must be a positive integer", value: r.appointmentTypeId });
  if (!PAYMENT_MODES.includes(r.paymentMode))
    issues.push({ field: "paymentMode", reason: `must be one of ${PAYMENT_MODES.join(", ")}`, value: r.paymentMode });
  for (const [field, list, max] of [
    ["providerIds", r.providerIds ?? [], WAITLIST_LIMITS.maxProviders],
    ["clinicIds", r.clinicIds ?? [], WAITLIST_LIMITS.maxClinics],
  ] as const) {
    if (list.length > max) issues.push({ field, reason: `must list at most ${max}` });
    else if (!list.every(isId) || new Set(list).size !== list.length)
      issues.push({ field, reason: "must be distinct positive ids", value: list });
  }
  const days = r.preferredDays ?? [];
  if (!days.every((d) => WEEKDAYS.includes(d)) || new Set(days).size !== days.length)
    issues.push({ field: "preferredDays", reason: `must be distinct days of ${WEEKDAYS.join(", ")}`, value: days });
  const windows = r.timeWindows ?? [];
  if (windows.length > WAITLIST_LIMITS.maxWindows)
    issues.push({ field: "timeWindows", reason: `must list at most ${WAITLIST_LIMITS.maxWindows}` });
  windows.forEach((w: TimeWindow, i) => {
    if (!HHMM.test(w.start) || !HHMM.test(w.end))
      issues.push({ field: `timeWindows.${i}`, reason: "start and end must be HH:MM", value: w });
    else if (w.end <= w.start) issues.push({ field: `timeWindows.${i}`, reason: "end must be after start", value: w });
  });
  for (const field of ["earliestDate", "latestDate"] as const) {
    const v = r[field];
    if (v != null && !isDate(v)) issues.push({ field, reason: "must be a date (YYYY-MM-DD)", value: v });
  }
  if (r.earliestDate && r.latestDate && isDate(r.earliestDate) && isDate(r.latestDate) && r.latestDate < r.earliestDate)
    issues.push({ field: "latestDate", reason: "must not be before earliestDate", value: r.latestDate });
  if (r.priority !== undefined && !WAITLIST_PRIORITIES.includes(r.priority))
    issues.push({ field: "priority", reason: `must be one of ${WAITLIST_PRIORITIES.join(", ")}`, value: r.priority });
  if (r.serviceCaseId != null && !isId(r.serviceCaseId))
    issues.push({ field: "serviceCaseId", reason: "must be a positive integer", value: r.serviceCaseId });
  if (r.notes != null && r.notes.length > WAITLIST_LIMITS.maxNotes)
    issues.push({ field: "notes", reason: `must be at most ${WAITLIST_LIMITS.maxNotes} characters` });
  return issues;
}

/** Smaller first: the order in which requests are offered a slot, before age. */
export const PRIORITY_RANK: Readonly<Record<WaitlistPriority, number>> = { high: 0, normal: 1, low: 2 };

/** Priority, then the oldest request, then the lowest id. */
export function byWaitlistOrder(a: WaitlistRequest, b: WaitlistRequest): number {
  return (
    PRIORITY_RANK[a.priority] - PRIORITY_RANK[b.priority] ||
    a.createdAt.getTime() - b.createdAt.getTime() ||
    a.id - b.id
  );
}

/** A freed stretch of a provider's time at a clinic, in the clinic's zone. */
export interface FreedSlot {
  providerId: number;
  clinicId: number;
  timeZone: string;
  startsAt: Date;
  endsAt: Date;
}

const WEEKDAY_OF_LUXON: readonly Weekday[] = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"];

/** The clinic-calendar date (YYYY-MM-DD) of an instant. */
export const clinicDate = (at: Date, zone: string) => DateTime.fromJSDate(at, { zone }).toISODate() as string;

/**
 * Whether an appointment of the request's type, starting when the slot starts, suits the request: its provider
 * and clinic, its dates, days and time windows (wall clock in the clinic's zone). `endsAt` is the appointment's end.
 */
export function requestAccepts(r: WaitlistRequest, slot: FreedSlot, endsAt: Date): boolean {
  if (r.providerIds.length > 0 && !r.providerIds.includes(slot.providerId)) return false;
  if (r.clinicIds.length > 0 && !r.clinicIds.includes(slot.clinicId)) return false;
  if (endsAt.getTime() > slot.endsAt.getTime()) return false;
  const start = DateTime.fromJSDate(slot.startsAt, { zone: slot.timeZone });
  const end = DateTime.fromJSDate(endsAt, { zone: slot.timeZone });
  const date = start.toISODate() as string;
  if (r.earliestDate && date < r.earliestDate) return false;
  if (r.latestDate && date > r.latestDate) return false;
  if (r.preferredDays.length > 0 && !r.preferredDays.includes(WEEKDAY_OF_LUXON[start.weekday - 1] as Weekday))
    return false;
  if (r.timeWindows.length > 0) {
    // An appointment that ends on another day fits no window of one day.
    if (end.toISODate() !== date) return false;
    const from = start.toFormat("HH:mm");
    const to = end.toFormat("HH:mm");
    if (!r.timeWindows.some((w) => w.start <= from && to <= w.end)) return false;
  }
  return true;
}

/** Whether the request's latest date has passed on `now`'s date in the zone. */
export const latestDatePassed = (r: WaitlistRequest, now: Date, zone: string) =>
  r.latestDate !== null && clinicDate(now, zone) > r.latestDate;
