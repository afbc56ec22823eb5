import { schedulingError } from "./scheduling-errors.js";
import { DateTime } from "luxon";
import type { Placement, PlacementCheck } from "../appointments/appointment-service.js";
import { SLOT_HOLDING_STATUSES } from "../appointments/appointment-state-machine.js";
import type { Clock } from "../kernel/clock.js";
import type { SchedulingServiceRepositories } from "./scheduling-service-repositories.js";
import { blockOccurrences } from "./block-series.js";
import { EXCEPTION_REACH_MS } from "./provider-block.js";
import { shiftOf } from "./provider-schedule.js";
import { occurrences } from "./shift.js";
import { mergeIntervals } from "./slots.js";

/** Why a time is not bookable, in the words details.reason uses. */
export type PlacementProblem =
  | { reason: "no_working_hours" }
  | { reason: "outside_working_hours" }
  | { reason: "blocked"; blockId: number }
  | { reason: "taken"; appointmentId: number }
  | { reason: "held"; offerId: number }
  | { reason: "past" };

const DAY_MS = 86_400_000;

/**
 * Whether [startsAt, endsAt) lies inside the provider's working hours at the clinic (shifts that touch count as
 * one stretch) and outside every block. Reads in the booking's transaction, so it sees what the lock protects.
 */
export async function workingHoursProblem(
  tx: SchedulingServiceRepositories,
  at: Placement,
): Promise<PlacementProblem | null> {
  const zone = at.clinic.timeZone;
  const firstDay = DateTime.fromJSDate(new Date(at.startsAt.getTime() - DAY_MS), { zone }).toISODate() as string;
  const schedules = (await tx.schedules.listInForce(at.organisationId, [at.provider.id], firstDay)).filter(
    (s) => s.clinicId === at.clinic.id,
  );
  if (schedules.length === 0) return { reason: "no_working_hours" };
  const from = new Date(at.startsAt.getTime() - DAY_MS);
  const to = new Date(at.endsAt.getTime() + DAY_MS);
  const worked = mergeIntervals(schedules.flatMap((s) => occurrences(shiftOf(s, zone), from, to)));
  if (!worked.some((w) => w.start <= at.startsAt && w.end >= at.endsAt)) return { reason: "outside_working_hours" };
  for (const block of await tx.blocks.listBetween(
    at.organisationId,
    [at.provider.id],
    at.startsAt,
    new Date(at.endsAt.getTime() + EXCEPTION_REACH_MS),
  ))
    if (blockOccurrences(block, at.startsAt, at.endsAt).length > 0) return { reason: "blocked", blockId: block.id };
  return null;
}

const MESSAGES: Record<PlacementProblem["reason"], string> = {
  no_working_hours: "the provider has no working hours at this clinic then",
  outside_working_hours: "the time is outside the provider's working hours at this clinic",
  blocked: "the provider has blocked that time",
  taken: "another appointment holds that time",
  held: "a waitlist offer holds that time until it is accepted or expires",
  past: "the slot has started already",
};

function details(p: PlacementProblem, at: Placement): Record<string, unknown> {
  return {
    reason: p.reason,
    provider_id: at.provider.id,
    clinic_id: at.clinic.id,
    start: at.startsAt.toISOString(),
    end: at.endsAt.toISOString(),
    ...(p.reason === "blocked" ? { block_id: p.blockId } : {}),
    ...(p.reason === "taken" ? { conflicting_appointment_id: p.appointmentId } : {}),
    ...(p.reason === "held" ? { waitlist_offer_id: p.offerId } : {}),
  };
}

/** A pending waitlist offer other than `exceptOfferId` that holds part of the time. */
export async function heldProblem(
  tx: SchedulingServiceRepositories,
  at: Placement,
  now: Date,
  exceptOfferId?: number,
): Promise<PlacementProblem | null> {
  const holds = await tx.waitlist.listHolds(at.organisationId, [at.provider.id], at.startsAt, at.endsAt, now);
  const hold = holds.find((h) => h.id !== exceptOfferId);
  return hold ? { reason: "held", offerId: hold.id } : null;
}

const slotUnavailable = (problem: PlacementProblem, at: Placement) =>
  schedulingError(
    "SLOT_UNAVAILABLE",
    `The slot is no longer available: ${MESSAGES[problem.reason]}`,
    details(problem, at),
  );

/**
 * Booking at a free start: inside working hours and outside blocks, else 409 OUTSIDE_WORKING_HOURS unless
 * `override`; never into time a waitlist offer holds (409 SLOT_UNAVAILABLE, reason held).
 */
export function insideWorkingHours(clock: Clock, override: boolean): PlacementCheck<SchedulingServiceRepositories> {
  return async (tx, at) => {
    const problem = override ? null : await workingHoursProblem(tx, at);
    if (problem)
      throw schedulingError("OUTSIDE_WORKING_HOURS", `Cannot book: ${MESSAGES[problem.reason]}`, details(problem, at));
    const held = await heldProblem(tx, at, clock.now());
    if (held) throw slotUnavailable(held, at);
  };
}

/** Why the slot is not bookable now, as the slot search decides; null when it is. */
export async function slotProblem(
  tx: SchedulingServiceRepositories,
  at: Placement,
  now: Date,
  exceptOfferId?: number,
): Promise<PlacementProblem | null> {
  if (at.startsAt.getTime() < now.getTime()) return { reason: "past" };
  const problem = (await workingHoursProblem(tx, at)) ?? (await heldProblem(tx, at, now, exceptOfferId));
  if (problem || at.clinic.allowDoubleBooking) return problem;
  const clash = await tx.appointments.findOverlapping({
    organisationId: at.organisationId,
    doctorId: at.provider.userId,
    startsAt: at.startsAt,
    endsAt: at.endsAt,
    statuses: SLOT_HOLDING_STATUSES,
  });
  return clash ? { reason: "taken", appointmentId: clash.id } : null;
}

/**
 * Booking a slot GET /v2/slots offered (or a waitlist offer's, `exceptOfferId` being its own hold): it must still
 * be bookable, else 409 SLOT_UNAVAILABLE. The doctor's schedule is locked, so of concurrent bookings of one slot
 * exactly one passes.
 */
export function slotStillFree(clock: Clock, exceptOfferId?: number): PlacementCheck<SchedulingServiceRepositories> {
  return async (tx, at) => {
    const problem = await slotProblem(tx, at, clock.now(), exceptOfferId);
    if (problem) throw slotUnavailable(problem, at);
  };
}
