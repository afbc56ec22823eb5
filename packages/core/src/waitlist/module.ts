import type { FreedTime } from "../appointments/freed-time.js";
import { FREED_TIME_QUEUE } from "../appointments/freed-time.js";
import { defineCoreModule } from "../modules/core-module.js";
import { WAITLIST_OFFER_EXPIRY_QUEUE, WaitlistMatcher } from "./waitlist-matcher.js";
import { WaitlistService } from "./waitlist-service.js";

/** The waitlist (spec 4.7 /v2/waitlist-requests): requests, and offers of freed slots made by background jobs. */
export const waitlistModule = defineCoreModule({
  key: "waitlist",
  createServices: ({ storage, clock, ids, settings }) => ({
    waitlist: new WaitlistService({ storage, clock }),
    waitlistMatcher: new WaitlistMatcher({ storage, clock, ids, offerMinutes: settings.waitlistOfferMinutes }),
  }),
  // Codes are public: never renamed or reused.
  errorCodes: [
    /** The request does not exist in the caller's organisation. */
    "WAITLIST_REQUEST_NOT_FOUND",
    /** accept-offer after the offer's hold ran out (details.expired_at); the slot goes to the next request. */
    "WAITLIST_OFFER_EXPIRED",
  ] as const,
  events: {
    "waitlist.offer_created": {
      fields: ["organisation_id", "waitlist_request_id", "waitlist_offer_id", "patient_id", "provider_id", "clinic_id"],
      description: "A freed slot was offered to a waitlist request and is held for it until accepted or expired.",
    },
  } as const,
  jobs: ({ waitlistMatcher }) => ({
    // Freed time (a cancellation, a removed block, a lapsed offer): offered to the best waiting request, if any.
    [FREED_TIME_QUEUE]: async (job) => {
      await waitlistMatcher.offerFreedTime(job.payload as FreedTime);
    },
    [WAITLIST_OFFER_EXPIRY_QUEUE]: async (job) => {
      const { organisationId, offerId } = job.payload as { organisationId: number; offerId: number };
      await waitlistMatcher.expireOffer(Number(organisationId), Number(offerId));
    },
  }),
});
