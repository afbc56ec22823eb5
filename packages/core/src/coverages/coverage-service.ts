import { coverageEvent } from "./coverage-events.js";
import { coverageError } from "./coverage-errors.js";
import { patientError } from "../patients/patient-errors.js";
import type { Principal } from "../auth/principal.js";
import type { Clock } from "../kernel/clock.js";
import { SELF_SUBSCRIBER } from "./coverage.js";
import { serviceCaseId } from "../kernel/service-case-id.js";
import type { InsuranceCard, Subscriber } from "./coverage.js";
import { DomainError } from "../kernel/domain-error.js";
import type { Storage } from "../kernel/storage.js";
import type { CoverageServiceRepositories } from "./coverage-service-repositories.js";
import { coverageNotFound, coverageOfPatient } from "./patient-coverage.js";
import { type CoverageChanges, type CoverageDraft, coverageIssues, type SubscriberInput } from "./coverage-rules.js";

const patientNotFound = (id: unknown) => patientError("PATIENT_NOT_FOUND", "Patient not found", { patient_id: id });

const subscriberOf = (s: SubscriberInput | null | undefined): Subscriber =>
  !s || s.relationship === "self"
    ? SELF_SUBSCRIBER
    : {
        relationship: s.relationship,
        firstName: s.firstName?.trim() ?? null,
        lastName: s.lastName?.trim() ?? null,
        dateOfBirth: s.dateOfBirth ?? null,
      };

const eventData = (c: InsuranceCard) => ({
  organisation_id: c.organisationId,
  patient_id: c.patientId,
  coverage_id: c.id,
});

/**
 * A patient's coverages (spec 4.7, v2): the insurance cards v1 shows, with the payer from the payer registry, the
 * member and group, the plan, the subscriber, the patient's order and an active flag. Every change writes its
 * coverage.* event in the same transaction.
 */
export class CoverageService {
  constructor(private readonly deps: { storage: Storage<CoverageServiceRepositories>; clock: Clock }) {}

  private async payerOf(tx: CoverageServiceRepositories, organisationId: number, payerRef: number) {
    const payer = await tx.payers.findById(organisationId, payerRef);
    if (!payer)
      throw DomainError.unknownReference([
        { field: "payerRef", reason: "is not a payer of the registry or of this organisation", value: payerRef },
      ]);
    return { payerRegId: payer.id, name: payer.name, payerId: payer.payerId };
  }

  private async patientOf(tx: CoverageServiceRepositories, principal: Principal, patientId: number) {
    if (!Number.isSafeInteger(patientId) || !(await tx.patients.findById(principal.organisationId, patientId)))
      throw patientNotFound(patientId);
  }

  async create(principal: Principal, patientId: number, draft: CoverageDraft): Promise<InsuranceCard> {
    const issues = coverageIssues(draft);
    if (issues.length > 0) throw DomainError.validation(issues);
    const now = this.deps.clock.now();
    return this.deps.storage.transaction(async (tx) => {
      await this.patientOf(tx, principal, patientId);
      const card = await tx.insuranceCards.insert({
        organisationId: principal.organisationId,
        patientId,
        payer: await this.payerOf(tx, principal.organisationId, draft.payerRef),
        insuranceNumber: draft.memberId.trim(),
        planStartDate: draft.planStartDate ?? null,
        planEndDate: draft.planEndDate ?? null,
        groupNumber: draft.groupNumber?.trim() ?? null,
        planName: draft.planName?.trim() ?? null,
        subscriber: subscriberOf(draft.subscriber),
        priority: draft.priority,
        active: draft.active ?? true,
        createdAt: now,
        updatedAt: now,
      });
      await tx.outbox.append(coverageEvent("coverage.created", eventData(card), now));
      return card;
    });
  }

  async list(principal: Principal, patientId: number): Promise<InsuranceCard[]> {
    const r = this.deps.storage.repositories;
    await this.patientOf(r, principal, patientId);
    return r.insuranceCards.listByPatient(principal.organisationId, patientId);
  }

  async get(principal: Principal, patientId: number, id: number): Promise<InsuranceCard> {
    const r = this.deps.storage.repositories;
    await this.patientOf(r, principal, patientId);
    return coverageOfPatient(r, principal.organisationId, patientId, id);
  }

  async update(principal: Principal, patientId: number, id: number, changes: CoverageChanges): Promise<InsuranceCard> {
    const current = await this.get(principal, patientId, id);
    const defined = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as CoverageChanges;
    const merged: CoverageDraft = {
      payerRef: current.payer.payerRegId ?? 0,
      memberId: current.insuranceNumber,
      groupNumber: current.groupNumber,
      planName: current.planName,
      subscriber: current.subscriber,
      planStartDate: current.planStartDate,
      planEndDate: current.planEndDate,
      // A v1 card has no rank until v2 gives it one.
      priority: current.priority ?? "primary",
      active: current.active,
      ...defined,
    };
    // A v1 card may name a payer outside the registry: it stays as it is unless the change names a payer.
    const issues = coverageIssues(merged).filter((i) => i.field !== "payerRef" || defined.payerRef !== undefined);
    if (issues.length > 0) throw DomainError.validation(issues);
    const now = this.deps.clock.now();
    return this.deps.storage.transaction(async (tx) => {
      const next: InsuranceCard = {
        ...current,
        payer:
          defined.payerRef === undefined
            ? current.payer
            : await this.payerOf(tx, principal.organisationId, defined.payerRef),
        insuranceNumber: merged.memberId.trim(),
        groupNumber: merged.groupNumber?.trim() ?? null,
        planName: merged.planName?.trim() ?? null,
        subscriber: subscriberOf(merged.subscriber),
        planStartDate: merged.planStartDate ?? null,
        planEndDate: merged.planEndDate ?? null,
        priority: defined.priority ?? current.priority,
        active: merged.active ?? true,
        updatedAt: now,
      };
      await tx.insuranceCards.update(next);
      await tx.outbox.append(coverageEvent("coverage.updated", eventData(next), now));
      return next;
    });
  }

  /**
   * Deletes a coverage no open case uses: a case that is not discharged and holds it (v1's copies of cards) makes
   * the delete 409 COVERAGE_IN_USE naming the cases. The record stays for the cases' history; reads leave it out.
   */
  async remove(principal: Principal, patientId: number, id: number): Promise<InsuranceCard> {
    const card = await this.get(principal, patientId, id);
    const now = this.deps.clock.now();
    return this.deps.storage.transaction(async (tx) => {
      // Cases copy cards from the undeleted ones only; one written in this very moment may still copy it (as a v1
      // case keeps a copy of a card changed later), which the case's own history shows.
      const cases = await tx.cases.listByPatient(principal.organisationId, patientId);
      const using = cases.filter(
        (c) => c.treatmentStatus !== "DISCHARGED" && c.insuranceCards.some((copy) => copy.id === id),
      );
      if (using.length > 0)
        throw coverageError(
          "COVERAGE_IN_USE",
          `Coverage ${id} is used by open case${using.length > 1 ? "s" : ""} ${using.map((c) => serviceCaseId(c.id)).join(", ")}`,
          { coverage_id: id, service_case_ids: using.map((c) => serviceCaseId(c.id)) },
        );
      if (!(await tx.insuranceCards.delete(principal.organisationId, id, now))) throw coverageNotFound(id);
      await tx.outbox.append(coverageEvent("coverage.deleted", eventData(card), now));
      return card;
    });
  }
}
