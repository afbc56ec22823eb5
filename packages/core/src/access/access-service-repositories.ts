import type { ClientAssertionRepository } from "./client-assertion-repository.js";
import type { OrganisationRepository } from "../organisations/organisation-repository.js";
import type { RateLimitStore } from "../rate-limits/rate-limit-store.js";
import type { ApiClientRepository } from "./api-client-repository.js";

/** The repositories organisation set-up, API clients and token grants read and write through: each a port of the feature that owns it. */
export interface AccessServiceRepositories {
  apiClients: ApiClientRepository;
  clientAssertions: ClientAssertionRepository;
  organisations: OrganisationRepository;
  rateLimits: RateLimitStore;
}
