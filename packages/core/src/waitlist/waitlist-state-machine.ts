import type { WaitlistStatus } from "./waitlist.js";

/** What moves a waitlist request: the caller (UPDATE, ACCEPT, CANCEL) or the matching jobs (the rest). */
export const WAITLIST_TRIGGERS = [
  "OFFER",
  "ACCEPT",
  "OFFER_EXPIRED",
  "LATEST_DATE_PASSED",
  "UPDATE",
  "CANCEL",
] as const;
export type WaitlistTrigger = (typeof WAITLIST_TRIGGERS)[number];

/**
 * Conditions besides the state, checked by the service or the matcher:
 * - `slot_matches`: the freed slot fits the request (provider, clinic, type, days, windows, dates), is still free
 *   and was never offered to it;
 * - `offer_live`: the request's offer is pending and not past its expiry, and its slot is still free;
 * - `before_latest` / `after_latest`: the request's latest date has not passed / has passed (clinic's calendar).
 */
export type WaitlistGuard = "slot_matches" | "offer_live" | "before_latest" | "after_latest";

/** Side effects of a transition, each written in the transition's transaction. */
export type WaitlistEffect =
  | "insert_offer"
  | "event_offer_created"
  | "queue_offer_expiry"
  | "queue_offer_push"
  | "book_appointment"
  | "accept_offer"
  | "expire_offer"
  | "withdraw_offer"
  | "queue_match_for_slot";

export interface WaitlistTransition {
  from: WaitlistStatus;
  trigger: WaitlistTrigger;
  guard: WaitlistGuard | null;
  to: WaitlistStatus;
  effects: readonly WaitlistEffect[];
}

/** The waitlist request state machine: one row per allowed transition; anything else is refused. */
export const WAITLIST_TRANSITIONS: readonly WaitlistTransition[] = Object.freeze([
  {
    from: "waiting",
    trigger: "OFFER",
    guard: "slot_matches",
    to: "offered",
    effects: ["insert_offer", "event_offer_created", "queue_offer_expiry", "queue_offer_push"],
  },
  { from: "waiting", trigger: "UPDATE", guard: null, to: "waiting", effects: [] },
  { from: "waiting", trigger: "LATEST_DATE_PASSED", guard: "after_latest", to: "expired", effects: [] },
  { from: "waiting", trigger: "CANCEL", guard: null, to: "cancelled", effects: [] },
  {
    from: "offered",
    trigger: "ACCEPT",
    guard: "offer_live",
    to: "booked",
    effects: ["book_appointment", "accept_offer"],
  },
  {
    from: "offered",
    trigger: "OFFER_EXPIRED",
    guard: "before_latest",
    to: "waiting",
    effects: ["expire_offer", "queue_match_for_slot"],
  },
  {
    from: "offered",
    trigger: "OFFER_EXPIRED",
    guard: "after_latest",
    to: "expired",
    effects: ["expire_offer", "queue_match_for_slot"],
  },
  { from: "offered", trigger: "UPDATE", guard: null, to: "offered", effects: [] },
  {
    from: "offered",
    trigger: "CANCEL",
    guard: null,
    to: "cancelled",
    effects: ["withdraw_offer", "queue_match_for_slot"],
  },
] as const satisfies readonly WaitlistTransition[]);

/** The transitions from a status on a trigger (OFFER_EXPIRED has two, told apart by their guards). */
export function waitlistTransitions(from: WaitlistStatus, trigger: WaitlistTrigger): WaitlistTransition[] {
  return WAITLIST_TRANSITIONS.filter((t) => t.from === from && t.trigger === trigger);
}

/** The triggers a status accepts, in table order without repeats (shown when one is refused). */
export function allowedWaitlistTriggers(from: WaitlistStatus): WaitlistTrigger[] {
  return [...new Set(WAITLIST_TRANSITIONS.filter((t) => t.from === from).map((t) => t.trigger))];
}
