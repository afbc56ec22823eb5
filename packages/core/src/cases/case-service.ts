import { queueAuthorizationsChange } from "./authorization-watch.js";
import { caseEvent } from "./case-events.js";
import { caseError } from "./case-errors.js";
import { organisationError } from "../organisations/organisation-errors.js";
import { patientError } from "../patients/patient-errors.js";
import type { Principal } from "../auth/principal.js";
import { findReachableClinic } from "../organisations/reachable-clinic.js";
import type { Clock } from "../kernel/clock.js";
import { DomainError, type ValidationIssue } from "../kernel/domain-error.js";
import type { Storage } from "../kernel/storage.js";
import type { CaseServiceRepositories } from "./case-service-repositories.js";
import type { Authorization } from "./authorization.js";
import { assertValidCaseInput, normaliseCaseInput } from "./case-rules.js";
import type { CaseChanges, CaseDraft, CaseInsuranceCard, CaseReferrals, PatientCase } from "./patient-case.js";
import { serviceCaseId } from "../kernel/service-case-id.js";
import type { ReferringPhysician } from "./referring-physician.js";
import { caseVisitReader } from "./case-visits.js";
import { progressReportPeriod } from "./progress-reports.js";
import { authRequiredStatus, visitUsage } from "./visit-tracking.js";

/** A case with what reads show beside it: its physicians resolved and its visit and authorization state. */
export interface CaseView {
  patientCase: PatientCase;
  physicians: {
    primary: ReferringPhysician | null;
    secondary: ReferringPhysician | null;
    tertiary: ReferringPhysician | null;
  };
  authRequiredStatus: ReturnType<typeof authRequiredStatus>;
  /** sinceProgressReport: treatment days since the last evaluation or progress report (progress-reports.ts). */
  visits: { used: number; booked: number; sinceProgressReport: number };
}

export const caseNotFound = (id: unknown) => caseError("CASE_NOT_FOUND", "Case not found", { service_case_id: id });

const RANKS = ["primary", "secondary", "tertiary"] as const;

function caseEventData(c: PatientCase) {
  return {
    organisation_id: c.organisationId,
    service_case_id: serviceCaseId(c.id),
    patient_id: c.patientId,
    clinic_id: c.clinicId,
  };
}

/** Cases (spec 2.4, 4.2) of the principal's organisation; every change writes its event in the same transaction. */
export class CaseService {
  constructor(private readonly deps: { storage: Storage<CaseServiceRepositories>; clock: Clock }) {}

  private today(): string {
    return this.deps.clock.now().toISOString().slice(0, 10);
  }

  /** Checks the organisation-dependent rules of an input and resolves the cards it names into copies. */
  private async resolve(
    tx: CaseServiceRepositories,
    principal: Principal,
    patientId: number,
    input: CaseChanges,
  ): Promise<{ cards?: CaseInsuranceCard[] }> {
    const orgId = principal.organisationId;
    if (input.specialization !== undefined) {
      const enabled = await tx.catalog.listSpecializations(orgId);
      if (!enabled.includes(input.specialization)) {
        throw DomainError.validation([
          {
            field: "specialization",
            reason: `is not enabled for this organisation (enabled: ${enabled.join(", ") || "none"})`,
            value: input.specialization,
          },
        ]);
      }
    }
    for (const rank of RANKS) {
      const id = input.referrals?.[rank];
      if (id != null && !(await tx.referringPhysicians.findById(orgId, id))) {
        throw caseError("REFERRING_PHYSICIAN_NOT_FOUND", `Referring physician ${id} not found`, {
          referring_physician_id: id,
          issues: [{ field: `referrals.${rank}`, reason: "does not exist in this organisation", value: id }],
        });
      }
    }
    // A case names its clinic: within the principal's clinic restriction (else as unknown), though cases are read organisation-wide.
    if (input.clinicId != null && !(await findReachableClinic(tx, principal, input.clinicId))) {
      throw organisationError("CLINIC_NOT_FOUND", "Clinic not found in this organisation", {
        issues: [{ field: "clinicId", reason: "does not exist in this organisation", value: input.clinicId }],
      });
    }
    if (input.insuranceCards === undefined) return {};
    const owned = await tx.insuranceCards.listByPatient(orgId, patientId);
    const issues: ValidationIssue[] = [];
    const cards = input.insuranceCards.map((pick, i) => {
      const card = owned.find((c) => c.id === pick.insuranceCardId);
      if (!card)
        issues.push({
          field: `insuranceCards.${i}.insuranceCardId`,
          reason: "is not an insurance card of this patient",
          value: pick.insuranceCardId,
        });
      return card
        ? {
            id: card.id,
            payer: card.payer,
            insuranceNumber: card.insuranceNumber,
            planStartDate: card.planStartDate,
            planEndDate: card.planEndDate,
            insuranceCardType: pick.insuranceCardType,
          }
        : undefined;
    });
    if (issues.length) throw DomainError.unknownReference(issues);
    return { cards: cards as CaseInsuranceCard[] };
  }

  async create(principal: Principal, sent: CaseDraft): Promise<CaseView> {
    const draft = normaliseCaseInput(sent);
    assertValidCaseInput(draft, true);
    const orgId = principal.organisationId;
    const now = this.deps.clock.now();
    return this.deps.storage.transaction(async (tx) => {
      if (!(await tx.patients.findById(orgId, draft.patientId))) {
        throw patientError("PATIENT_NOT_FOUND", "Patient not found", {
          patient_id: draft.patientId,
          issues: [{ field: "patientId", reason: "does not exist in this organisation", value: draft.patientId }],
        });
      }
      const { cards } = await this.resolve(tx, principal, draft.patientId, draft);
      const referrals: CaseReferrals = {
        primary: draft.referrals?.primary ?? null,
        secondary: draft.referrals?.secondary ?? null,
        tertiary: draft.referrals?.tertiary ?? null,
      };
      const created = await tx.cases.insert({
        organisationId: orgId,
        patientId: draft.patientId,
        clinicId: draft.clinicId ?? null,
        caseTitle: draft.caseTitle.trim(),
        specialization: draft.specialization,
        directAccess: draft.directAccess ?? false,
        referrals,
        icdCodes: draft.icdCodes ?? [],
        treatingIcdCodes: draft.treatingIcdCodes ?? [],
        insuranceCards: cards ?? [],
        numberOfPastVisits: draft.numberOfPastVisits ?? 0,
        treatmentStatus: draft.treatmentStatus ?? "ACTIVE",
        treatmentStartDate: draft.treatmentStartDate ?? null,
        dateOfInjury: draft.dateOfInjury ?? null,
        dateOfSurgery: draft.dateOfSurgery ?? null,
        paymentMode: draft.paymentMode ?? null,
        frequencyAndDuration: draft.frequencyAndDuration ?? null,
        visitTrackRequired: draft.visitTrackRequired ?? false,
        caseVisitLimit: draft.caseVisitLimit ?? 0,
        bodyPainNotes: draft.bodyPainNotes ?? null,
        affectedBodyParts: draft.affectedBodyParts ?? [],
        therapistIds: draft.therapistIds ?? [],
        createdAt: now,
        updatedAt: now,
      });
      await tx.outbox.append(caseEvent("case.created", caseEventData(created), now));
      return this.view(tx, created);
    });
  }

  async get(principal: Principal, id: number): Promise<CaseView> {
    const found = await this.deps.storage.repositories.cases.findById(principal.organisationId, id);
    if (!found) throw caseNotFound(serviceCaseId(id));
    return this.view(this.deps.storage.repositories, found);
  }

  async listByPatient(principal: Principal, patientId: number): Promise<CaseView[]> {
    const r = this.deps.storage.repositories;
    if (!(await r.patients.findById(principal.organisationId, patientId)))
      throw patientError("PATIENT_NOT_FOUND", "Patient not found", { patient_id: patientId });
    return Promise.all((await r.cases.listByPatient(principal.organisationId, patientId)).map((c) => this.view(r, c)));
  }

  /**
   * Partial update. Discharging (treatment_status → DISCHARGED) emits
   * case.discharged; any other change emits case.updated; a change that
   * changes nothing writes nothing and emits nothing.
   */
  async update(principal: Principal, id: number, sent: CaseChanges): Promise<CaseView> {
    const changes = normaliseCaseInput(sent);
    assertValidCaseInput(changes, false);
    const orgId = principal.organisationId;
    const now = this.deps.clock.now();
    return this.deps.storage.transaction(async (tx) => {
      // Locked like a booking, so a visit count never reads a half-changed limit.
      if (!(await tx.cases.lockForVisits(orgId, id))) throw caseNotFound(serviceCaseId(id));
      const current = await tx.cases.findById(orgId, id);
      if (!current) throw caseNotFound(serviceCaseId(id));
      const { cards } = await this.resolve(tx, principal, current.patientId, changes);
      const { referrals, insuranceCards: _picks, caseTitle, ...rest } = changes;
      const defined = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
      const next: PatientCase = {
        ...current,
        ...defined,
        caseTitle: caseTitle?.trim() ?? current.caseTitle,
        referrals: { ...current.referrals, ...referrals },
        insuranceCards: cards ?? current.insuranceCards,
        updatedAt: now,
      };
      const { updatedAt: _a, ...before } = current;
      const { updatedAt: _b, ...after } = next;
      if (JSON.stringify(before) === JSON.stringify(after)) return this.view(tx, current);
      await tx.cases.update(next);
      const discharged = current.treatmentStatus !== "DISCHARGED" && next.treatmentStatus === "DISCHARGED";
      await tx.outbox.append(caseEvent(discharged ? "case.discharged" : "case.updated", caseEventData(next), now));
      await queueAuthorizationsChange(tx, { organisationId: principal.organisationId, caseId: next.id }, now);
      return this.view(tx, next);
    });
  }

  private async view(r: CaseServiceRepositories, c: PatientCase): Promise<CaseView> {
    const orgId = c.organisationId;
    const physician = async (id: number | null) =>
      id === null ? null : ((await r.referringPhysicians.findById(orgId, id)) ?? null);
    const [primary, secondary, tertiary, authorizations, reader] = await Promise.all([
      physician(c.referrals.primary),
      physician(c.referrals.secondary),
      physician(c.referrals.tertiary),
      r.authorizations.listByCase(orgId, c.id),
      caseVisitReader(r, orgId),
    ]);
    const usage = visitUsage(await reader.visitsOf(c.id), reader.zoneOf);
    const period = progressReportPeriod(await reader.notesOf(c.id), reader.zoneOf);
    return {
      patientCase: c,
      physicians: { primary, secondary, tertiary },
      authRequiredStatus: authRequiredStatus(c, authorizations as Authorization[], this.today()),
      visits: {
        used: c.numberOfPastVisits + usage.used,
        booked: usage.booked,
        sinceProgressReport: period.treatmentDays,
      },
    };
  }
}
