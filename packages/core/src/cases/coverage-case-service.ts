import type { Principal } from "../auth/principal.js";
import { DomainError, type ValidationIssue } from "../kernel/domain-error.js";
import { dottedIcdCode } from "../icd/icd-code.js";
import type { IcdService } from "../icd/icd-search-service.js";
import type { Storage } from "../kernel/storage.js";
import type { CaseServiceRepositories } from "./case-service-repositories.js";
import { type CaseService, type CaseView, caseNotFound } from "./case-service.js";
import type { CaseChanges, CaseDraft, CaseInsuranceCard, IcdCode, InsuranceCardType } from "./patient-case.js";
import { serviceCaseId } from "../kernel/service-case-id.js";

/**
 * What a case names by reference where v1 sends copies (spec 9): diagnoses by ICD-10-CM code, insurance by pointers
 * into the patient's coverages. null clears a pointer; an omitted one stays.
 */
export interface CaseReferences {
  icdCodes?: readonly string[] | undefined;
  treatingIcdCodes?: readonly string[] | undefined;
  primaryCoverageId?: number | null | undefined;
  secondaryCoverageId?: number | null | undefined;
}

type Plain<T> = Omit<T, "icdCodes" | "treatingIcdCodes" | "insuranceCards">;
export type CoverageCaseDraft = Plain<CaseDraft> & CaseReferences;
export type CoverageCaseChanges = Plain<CaseChanges> & CaseReferences;

const POINTERS = [
  ["primaryCoverageId", "PRIMARY"],
  ["secondaryCoverageId", "SECONDARY"],
] as const satisfies ReadonlyArray<readonly [keyof CaseReferences, InsuranceCardType]>;

/** The input without what `resolve` turns into the case service's terms. */
function withoutReferences<T extends CaseReferences>(input: T): Omit<T, keyof CaseReferences> {
  const { icdCodes: _a, treatingIcdCodes: _b, primaryCoverageId: _c, secondaryCoverageId: _d, ...plain } = input;
  return plain;
}

/** The coverage a case points to at a rank: its copy of that rank's card (v1's view of the same pointer). */
export function coveragePointer(cards: readonly CaseInsuranceCard[], rank: InsuranceCardType): number | null {
  return cards.find((c) => c.insuranceCardType === rank)?.id ?? null;
}

/**
 * Cases as v2 writes them (spec 4.7): the same cases as v1, with ICD codes looked up in the loaded code set and
 * coverage pointers kept as the case's PRIMARY and SECONDARY card copies, so v1 reads them as cards and deleting a
 * coverage an open case points to stays refused (COVERAGE_IN_USE). A TERTIARY copy written on v1 is kept.
 */
export class CoverageCaseService {
  constructor(
    private readonly deps: { storage: Storage<CaseServiceRepositories>; cases: CaseService; icd: IcdService },
  ) {}

  async create(principal: Principal, sent: CoverageCaseDraft): Promise<CaseView> {
    const resolved = await this.resolve(principal, sent.patientId, sent, []);
    return this.deps.cases.create(principal, { ...withoutReferences(sent), ...resolved });
  }

  async update(principal: Principal, id: number, sent: CoverageCaseChanges): Promise<CaseView> {
    // The row, not the case's view: only its patient and card copies are needed before the case service's update.
    const current = await this.deps.storage.repositories.cases.findById(principal.organisationId, id);
    if (!current) throw caseNotFound(serviceCaseId(id));
    const resolved = await this.resolve(principal, current.patientId, sent, current.insuranceCards);
    return this.deps.cases.update(principal, id, { ...withoutReferences(sent), ...resolved });
  }

  /** Codes and pointers as the case service takes them; VALIDATION_FAILED or UNKNOWN_REFERENCE naming the field. */
  private async resolve(
    principal: Principal,
    patientId: number,
    refs: CaseReferences,
    current: readonly CaseInsuranceCard[],
  ): Promise<Pick<CaseDraft, "icdCodes" | "treatingIcdCodes" | "insuranceCards">> {
    const issues: ValidationIssue[] = [];
    const out: Pick<CaseDraft, "icdCodes" | "treatingIcdCodes" | "insuranceCards"> = {};
    for (const field of ["icdCodes", "treatingIcdCodes"] as const) {
      const codes = refs[field];
      if (codes !== undefined) out[field] = await this.codes(field, codes, issues);
    }
    const pointed = POINTERS.filter(([field]) => refs[field] !== undefined);
    if (pointed.length > 0) {
      const picks = new Map(current.map((c) => [c.insuranceCardType, c.id] as const));
      for (const [field, rank] of pointed) {
        const to = refs[field];
        if (to === null || to === undefined) picks.delete(rank);
        else picks.set(rank, to);
      }
      const primary = picks.get("PRIMARY");
      if (primary !== undefined && primary === picks.get("SECONDARY"))
        issues.push({ field: "secondaryCoverageId", reason: "must not be the primary coverage", value: primary });
      if (issues.length === 0) await this.checkOwned(principal, patientId, pointed, refs);
      out.insuranceCards = [...picks].map(([insuranceCardType, insuranceCardId]) => ({
        insuranceCardId,
        insuranceCardType,
      }));
    }
    if (issues.length > 0) throw DomainError.validation(issues);
    return out;
  }

  private async checkOwned(
    principal: Principal,
    patientId: number,
    pointed: ReadonlyArray<(typeof POINTERS)[number]>,
    refs: CaseReferences,
  ): Promise<void> {
    const owned = Number.isSafeInteger(patientId)
      ? await this.deps.storage.repositories.insuranceCards.listByPatient(principal.organisationId, patientId)
      : [];
    const unknown: ValidationIssue[] = [];
    for (const [field] of pointed) {
      const id = refs[field];
      if (id != null && !owned.some((c) => c.id === id))
        unknown.push({ field, reason: "is not a coverage of the case's patient", value: id });
    }
    if (unknown.length > 0) throw DomainError.unknownReference(unknown);
  }

  /** ICD-10-CM codes of the loaded code set as a case or authorization stores them; VALIDATION_FAILED naming misses. */
  async icdCodes(field: string, sent: readonly string[]): Promise<IcdCode[]> {
    const issues: ValidationIssue[] = [];
    const codes = await this.codes(field, sent, issues);
    if (issues.length > 0) throw DomainError.validation(issues);
    return codes;
  }

  private async codes(field: string, sent: readonly string[], issues: ValidationIssue[]): Promise<IcdCode[]> {
    const { year, found } = await this.deps.icd.findCodes(sent);
    if (year === null && sent.length > 0) {
      issues.push({ field, reason: "needs an ICD-10-CM code set: none is loaded (openpractice import icd10cm)" });
      return [];
    }
    return sent.flatMap((code, i) => {
      const hit = found.get(code);
      if (!hit) {
        issues.push({ field: `${field}.${i}`, reason: `is not a code of the ICD-10-CM ${year} code set`, value: code });
        return [];
      }
      return [
        { id: hit.orderNumber, code: dottedIcdCode(hit.code), description: hit.longDescription, revision: "ICD10" },
      ];
    });
  }
}
