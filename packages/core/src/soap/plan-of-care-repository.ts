import type { PlanOfCare } from "./plan-of-care.js";

/** Plans of care: one per case, or one per patient for notes without a case. */
export interface PlanOfCareRepository {
  findById(organisationId: number, id: number): Promise<PlanOfCare | undefined>;
  /**
   * The plan of the case (serviceCaseId null: the patient's plan without a
   * case), as last committed. With `forUpdate` it stays locked against other
   * writers until the transaction ends: read it so before writing a new version.
   */
  findFor(
    organisationId: number,
    patientId: number,
    serviceCaseId: number | null,
    options?: { forUpdate?: boolean },
  ): Promise<PlanOfCare | undefined>;
  /**
   * Stores the case's first plan. Concurrency: when another transaction stored
   * the case's plan first, resolves to undefined and writes nothing (it never
   * raises for the duplicate, so the transaction stays usable); the caller then
   * updates that plan (findFor with forUpdate).
   */
  insert(plan: Omit<PlanOfCare, "id">): Promise<PlanOfCare | undefined>;
  /** Replaces every field but the keys and createdAt. */
  update(plan: PlanOfCare): Promise<void>;
  /**
   * The organisation's plans of cases (not a patient's plan without a case) whose certification period ends on or
   * after `endingOnOrAfter`, by id after `afterId`: what the certification watch reads each day.
   */
  listOfCasesEndingFrom(
    organisationId: number,
    endingOnOrAfter: string,
    afterId: number,
    limit: number,
  ): Promise<PlanOfCare[]>;
}
