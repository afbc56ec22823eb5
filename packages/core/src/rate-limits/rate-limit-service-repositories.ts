import type { OrganisationRepository } from "../organisations/organisation-repository.js";
import type { RateLimitStore } from "./rate-limit-store.js";

/** The repositories the rate limiter read and write through: each a port of the feature that owns it. */
export interface RateLimitServiceRepositories {
  rateLimits: RateLimitStore;
  organisations: OrganisationRepository;
}
