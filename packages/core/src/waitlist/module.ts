import type { FreedTime } from "../appointments/freed-time.js";
import { FREED_TIME_QUEUE } from "../appointments/freed-time.js";
import { defineCoreModule, type ModuleDependencies, owns } from "../kernel/module.js";
import { integerOption, type OptionValues } from "../kernel/options.js";
import type { WaitlistRepository } from "./waitlist-repository.js";
import type { WaitlistServiceRepositories } from "./waitlist-service-repositories.js";
import { WAITLIST_EVENTS } from "./waitlist-events.js";
import { WAITLIST_ERROR_CODES } from "./waitlist-errors.js";
import { WAITLIST_OFFER_EXPIRY_QUEUE, WaitlistMatcher } from "./waitlist-matcher.js";
import { WaitlistService } from "./waitlist-service.js";
import { WAITLIST_LIMITS } from "./waitlist.js";

const options = {
  /** How long a waitlist offer holds its slot, in minutes (1 to 1440; default 30). */
  waitlistOfferMinutes: integerOption({ min: 1, max: 1440, default: WAITLIST_LIMITS.defaultOfferMinutes }),
};

/** The waitlist (spec 4.7 /v2/waitlist-requests): requests, and offers of freed slots made by background jobs. */
export const waitlistModule = defineCoreModule({
  key: "waitlist",
  repositories: owns<{ waitlist: WaitlistRepository }>(),
  options,
  createServices: ({
    storage,
    clock,
    ids,
    settings,
  }: ModuleDependencies<WaitlistServiceRepositories, OptionValues<typeof options>>) => ({
    waitlist: new WaitlistService({ storage, clock }),
    waitlistMatcher: new WaitlistMatcher({ storage, clock, ids, offerMinutes: settings.waitlistOfferMinutes }),
  }),
  errorCodes: WAITLIST_ERROR_CODES,
  events: WAITLIST_EVENTS,
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
