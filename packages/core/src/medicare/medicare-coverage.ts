import type { CaseRepository } from "../cases/case-repository.js";
import type { InsuranceCardRepository } from "../coverages/insurance-card-repository.js";
import type { InsurancePayer } from "../coverages/coverage.js";
import type { PayerRepository } from "../payers/payer-repository.js";

/** What deciding a visit's Medicare Part B coverage reads. */
export interface MedicareCoverageRepositories {
  cases: Pick<CaseRepository, "findById">;
  insuranceCards: Pick<InsuranceCardRepository, "listByPatient">;
  payers: Pick<PayerRepository, "findById">;
}

export interface CardInForce {
  id: number;
  payer: InsurancePayer;
  planStartDate: string | null;
  planEndDate: string | null;
}

const inForce = (card: CardInForce, day: string) =>
  (card.planStartDate === null || card.planStartDate <= day) && (card.planEndDate === null || day <= card.planEndDate);

/**
 * The Medicare Part B coverage a visit is billed under, or undefined: the rules of docs/medicare-therapy.md apply
 * only then. The cards read are the case's (a visit of a case bills the case's cards) or, for a visit without a
 * case, the patient's active coverages; one whose plan dates hold the service date and whose payer is a registry or
 * organisation payer flagged Medicare Part B decides. A card naming a payer by name only never does.
 */
export async function medicarePartBCoverage(
  r: MedicareCoverageRepositories,
  visit: { organisationId: number; patientId: number; serviceCaseId: number | null },
  serviceDate: string,
): Promise<{ coverageId: number; payerRef: number } | undefined> {
  return partBAmong(r, visit.organisationId, await visitCards(r, visit), serviceDate);
}

/** The cards a visit bills: its case's, or the patient's active coverages for a visit without a case. */
export async function visitCards(
  r: MedicareCoverageRepositories,
  visit: { organisationId: number; patientId: number; serviceCaseId: number | null },
): Promise<CardInForce[]> {
  return visit.serviceCaseId !== null
    ? ((await r.cases.findById(visit.organisationId, visit.serviceCaseId))?.insuranceCards ?? [])
    : (await r.insuranceCards.listByPatient(visit.organisationId, visit.patientId)).filter((c) => c.active);
}

/** The first of `cards` in force on the date whose payer is flagged Medicare Part B. */
export async function partBAmong(
  r: MedicareCoverageRepositories,
  organisationId: number,
  cards: readonly CardInForce[],
  serviceDate: string,
): Promise<{ coverageId: number; payerRef: number } | undefined> {
  for (const card of cards) {
    const payerRef = card.payer.payerRegId;
    if (payerRef === null || !inForce(card, serviceDate)) continue;
    const payer = await r.payers.findById(organisationId, payerRef);
    if (payer?.medicarePartB) return { coverageId: card.id, payerRef };
  }
  return undefined;
}
