import type { Repositories } from "../ports/storage.js";

/**
 * Organisations appear with their first write: the one a token names is created (free plan, a placeholder name)
 * unless it exists. Every service that writes an organisation's first row calls this in its transaction.
 */
export function ensureOrganisation(repositories: Repositories, organisationId: number, now: Date): Promise<void> {
  return repositories.organisations.ensure({
    id: organisationId,
    name: `Organisation ${organisationId}`,
    plan: "free",
    now,
  });
}
