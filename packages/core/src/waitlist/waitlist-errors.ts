import { errorsOf } from "../kernel/domain-error.js";

/** Errors of the waitlist. Codes are public: never renamed or reused. */
export const WAITLIST_ERROR_CODES = [
  /** The request does not exist in the caller's organisation. */
  "WAITLIST_REQUEST_NOT_FOUND",
  /** accept-offer after the offer's hold ran out (details.expired_at); the slot goes to the next request. */
  "WAITLIST_OFFER_EXPIRED",
] as const;

/** Throws one of the codes above (and only those). */
export const waitlistError = errorsOf(WAITLIST_ERROR_CODES);
