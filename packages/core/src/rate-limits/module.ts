import { defineCoreModule } from "../modules/core-module.js";
import { RATE_LIMIT_ERROR_CODES } from "./rate-limit-errors.js";
import { RateLimiter } from "./rate-limiter.js";

/** The per-organisation request budget of each plan (spec 5.3). */
export const rateLimitsModule = defineCoreModule({
  key: "rate-limits",
  createServices: ({ storage, clock, settings }) => ({
    rateLimiter: new RateLimiter({ storage, clock, planLimits: settings.planLimits }),
  }),
  errorCodes: RATE_LIMIT_ERROR_CODES,
  events: {},
});
