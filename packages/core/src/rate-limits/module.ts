import { defineCoreModule, type ModuleDependencies, owns } from "../kernel/module.js";
import type { RateLimitServiceRepositories } from "./rate-limit-service-repositories.js";
import type { Plan } from "../organisations/organisation.js";
import type { RateLimitStore } from "./rate-limit-store.js";
import { RATE_LIMIT_ERROR_CODES } from "./rate-limit-errors.js";
import { RateLimiter } from "./rate-limiter.js";

/** The per-organisation request budget of each plan (spec 5.3). */
export const rateLimitsModule = defineCoreModule({
  key: "rate-limits",
  repositories: owns<{ rateLimits: RateLimitStore }>(),
  createServices: ({
    storage,
    clock,
    settings,
  }: ModuleDependencies<RateLimitServiceRepositories, { planLimits: Readonly<Record<Plan, number>> }>) => ({
    rateLimiter: new RateLimiter({ storage, clock, planLimits: settings.planLimits }),
  }),
  errorCodes: RATE_LIMIT_ERROR_CODES,
  events: {},
});
