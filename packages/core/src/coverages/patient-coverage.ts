import { coverageError } from "./coverage-errors.js";
import type { InsuranceCard } from "./coverage.js";
import type { InsuranceCardRepository } from "./insurance-card-repository.js";

export const coverageNotFound = (id: unknown) =>
  coverageError("COVERAGE_NOT_FOUND", "Coverage not found", { coverage_id: id });

/**
 * One of the patient's (undeleted) coverages in the organisation: what every path naming a patient's coverage reads
 * (coverages, eligibility checks, authorizations under a coverage). COVERAGE_NOT_FOUND otherwise.
 */
export async function coverageOfPatient(
  r: { insuranceCards: Pick<InsuranceCardRepository, "findById"> },
  organisationId: number,
  patientId: number,
  coverageId: number,
): Promise<InsuranceCard> {
  const card = await r.insuranceCards.findById(organisationId, coverageId);
  if (!card || card.patientId !== patientId) throw coverageNotFound(coverageId);
  return card;
}
