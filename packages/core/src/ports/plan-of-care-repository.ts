import type { PlanOfCare } from "../soap/plan-of-care.js";

/** Plans of care: one per case, or one per patient for notes without a case. */
export interface PlanOfCareRepository {
  findById(organisationId: number, id: number): Promise<PlanOfCare | undefined>;
  /** The plan of the case (serviceCaseId null: the patient's plan without a case). */
  findFor(organisationId: number, patientId: number, serviceCaseId: number | null): Promise<PlanOfCare | undefined>;
  insert(plan: Omit<PlanOfCare, "id">): Promise<PlanOfCare>;
  /** Replaces every field but the keys and createdAt. */
  update(plan: PlanOfCare): Promise<void>;
}
