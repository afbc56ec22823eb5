import { coverageEvent } from "../coverages/coverage-events.js";
import { patientError } from "../patients/patient-errors.js";
import type { Principal } from "../auth/principal.js";
import type { Clock } from "../kernel/clock.js";
import { DomainError, type ValidationIssue } from "../kernel/domain-error.js";
import type { Storage } from "../kernel/storage.js";
import type { CaseServiceRepositories } from "./case-service-repositories.js";
import { checkDate } from "../kernel/calendar-date.js";
import { type InsuranceCard, type InsurancePayer, SELF_SUBSCRIBER } from "../coverages/coverage.js";

export interface InsuranceCardDraft {
  payer: InsurancePayer;
  insuranceNumber: string;
  planStartDate?: string | null | undefined;
  planEndDate?: string | null | undefined;
}

const patientNotFound = (id: unknown) => patientError("PATIENT_NOT_FOUND", "Patient not found", { patient_id: id });

/** A patient's insurance cards: what cases copy with a PRIMARY, SECONDARY or TERTIARY rank. */
export class InsuranceCardService {
  constructor(private readonly deps: { storage: Storage<CaseServiceRepositories>; clock: Clock }) {}

  async add(principal: Principal, patientId: number, draft: InsuranceCardDraft): Promise<InsuranceCard> {
    const issues: ValidationIssue[] = [];
    if (typeof draft.payer?.name !== "string" || draft.payer.name.trim() === "" || draft.payer.name.length > 200)
      issues.push({ field: "payer.name", reason: "must be 1 to 200 characters" });
    if (
      typeof draft.insuranceNumber !== "string" ||
      draft.insuranceNumber.trim() === "" ||
      draft.insuranceNumber.length > 50
    )
      issues.push({ field: "insuranceNumber", reason: "must be 1 to 50 characters" });
    checkDate(issues, "planStartDate", draft.planStartDate);
    checkDate(issues, "planEndDate", draft.planEndDate);
    if (draft.planStartDate && draft.planEndDate && draft.planEndDate < draft.planStartDate)
      issues.push({ field: "planEndDate", reason: "must not be before planStartDate", value: draft.planEndDate });
    if (issues.length) throw DomainError.validation(issues);
    const now = this.deps.clock.now();
    return this.deps.storage.transaction(async (tx) => {
      if (!(await tx.patients.findById(principal.organisationId, patientId))) throw patientNotFound(patientId);
      const card = await tx.insuranceCards.insert({
        organisationId: principal.organisationId,
        patientId,
        payer: {
          payerRegId: draft.payer.payerRegId ?? null,
          name: draft.payer.name.trim(),
          payerId: draft.payer.payerId ?? null,
        },
        insuranceNumber: draft.insuranceNumber.trim(),
        planStartDate: draft.planStartDate ?? null,
        planEndDate: draft.planEndDate ?? null,
        // v1 sends none of v2's coverage fields: the patient is the subscriber, no rank until a case gives one.
        groupNumber: null,
        planName: null,
        subscriber: SELF_SUBSCRIBER,
        priority: null,
        active: true,
        createdAt: now,
        updatedAt: now,
      });
      // The same record is a v2 coverage: its event is written here too.
      await tx.outbox.append(
        coverageEvent(
          "coverage.created",
          { organisation_id: card.organisationId, patient_id: patientId, coverage_id: card.id },
          now,
        ),
      );
      return card;
    });
  }

  async list(principal: Principal, patientId: number): Promise<InsuranceCard[]> {
    const r = this.deps.storage.repositories;
    if (!(await r.patients.findById(principal.organisationId, patientId))) throw patientNotFound(patientId);
    return r.insuranceCards.listByPatient(principal.organisationId, patientId);
  }
}
