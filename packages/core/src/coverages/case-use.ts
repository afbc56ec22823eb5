/** A case as the coverage rules read it: cases sit above coverages, so this is the shape read, not their record. */
export interface CaseUsingCoverage {
  id: number;
  treatmentStatus: string;
  /** The cards the case copies, by the card's id. */
  insuranceCards: ReadonlyArray<{ id: number }>;
}

/** What a coverage's removal reads of cases: the patient's cases, to refuse removing a card an open case uses. */
export interface CaseUseRepositories {
  cases: { listByPatient(organisationId: number, patientId: number): Promise<CaseUsingCoverage[]> };
}
