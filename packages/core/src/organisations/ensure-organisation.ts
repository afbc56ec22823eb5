import type { OrganisationRepository } from "./organisation-repository.js";

/**
 * Organisations appear with their first write: the one a token names is created (free plan, a placeholder name)
 * unless it exists. Every service that writes an organisation's first row calls this in its transaction.
 */
export function ensureOrganisation(
  repositories: { organisations: Pick<OrganisationRepository, "ensure"> },
  organisationId: number,
  now: Date,
): Promise<void> {
  return repositories.organisations.ensure({
    id: organisationId,
    name: `Organisation ${organisationId}`,
    plan: "free",
    now,
  });
}
