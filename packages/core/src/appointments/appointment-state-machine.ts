import type { APPOINTMENT_EVENTS } from "./appointment-events.js";
import type { AppointmentStatus } from "./appointment.js";

/** Actions a caller can take on an existing appointment (each has a v1 endpoint). */
export const APPOINTMENT_ACTIONS = ["CHECK_IN", "START", "CHECK_OUT", "NO_SHOW", "RESCHEDULE", "CANCEL"] as const;
export type AppointmentAction = (typeof APPOINTMENT_ACTIONS)[number];

/**
 * Conditions a transition needs besides the current state; the service checks
 * them (they need the clock, the request or the store):
 * - `slot_free`: the doctor has no other active appointment overlapping the new times (unless the clinic allows double booking);
 * - `start_passed`: the appointment's start time has passed (nobody is a no-show in advance);
 * - `reason_active`: the cancellation reason is one of the organisation's active reasons.
 */
export type AppointmentGuard = "slot_free" | "start_passed" | "reason_active";

export interface AppointmentTransition {
  from: AppointmentStatus;
  action: AppointmentAction;
  guard: AppointmentGuard | null;
  to: AppointmentStatus;
  /** The event written to the outbox in the same transaction. */
  event: keyof typeof APPOINTMENT_EVENTS;
}

/**
 * The appointment state machine, one row per allowed transition. Anything not
 * listed is refused with INVALID_TRANSITION naming the current status.
 * Booking (no state → SCHEDULED, guard slot_free, event appointment.created)
 * is the service's book(); docs/appointments.md draws the diagram.
 */
export const APPOINTMENT_TRANSITIONS: readonly AppointmentTransition[] = Object.freeze([
  { from: "SCHEDULED", action: "CHECK_IN", guard: null, to: "CHECKED_IN", event: "appointment.updated" },
  { from: "SCHEDULED", action: "RESCHEDULE", guard: "slot_free", to: "SCHEDULED", event: "appointment.updated" },
  { from: "SCHEDULED", action: "NO_SHOW", guard: "start_passed", to: "NO_SHOW", event: "appointment.updated" },
  { from: "SCHEDULED", action: "CANCEL", guard: "reason_active", to: "CANCELLED", event: "appointment.cancelled" },
  { from: "CHECKED_IN", action: "START", guard: null, to: "IN_PROGRESS", event: "appointment.updated" },
  { from: "CHECKED_IN", action: "CHECK_OUT", guard: null, to: "CHECKED_OUT", event: "appointment.updated" },
  { from: "CHECKED_IN", action: "CANCEL", guard: "reason_active", to: "CANCELLED", event: "appointment.cancelled" },
  { from: "IN_PROGRESS", action: "CHECK_OUT", guard: null, to: "CHECKED_OUT", event: "appointment.updated" },
  // A missed visit can be booked again, or closed as a (late) cancellation with its fee.
  { from: "NO_SHOW", action: "RESCHEDULE", guard: "slot_free", to: "SCHEDULED", event: "appointment.updated" },
  { from: "NO_SHOW", action: "CANCEL", guard: "reason_active", to: "CANCELLED", event: "appointment.cancelled" },
] as const satisfies readonly AppointmentTransition[]);

/** Statuses whose appointments hold the doctor's time (a cancelled or missed visit frees it). */
export const SLOT_HOLDING_STATUSES: readonly AppointmentStatus[] = Object.freeze([
  "SCHEDULED",
  "CHECKED_IN",
  "IN_PROGRESS",
  "CHECKED_OUT",
]);

export function findTransition(from: AppointmentStatus, action: AppointmentAction): AppointmentTransition | undefined {
  return APPOINTMENT_TRANSITIONS.find((t) => t.from === from && t.action === action);
}

/** The actions allowed from a status, in table order (shown in INVALID_TRANSITION details). */
export function allowedActions(from: AppointmentStatus): AppointmentAction[] {
  return APPOINTMENT_TRANSITIONS.filter((t) => t.from === from).map((t) => t.action);
}
