import {
  storedClaimReference,
  type ClaimRepository,
  type PlanOfCareRepository,
  type SoapDocumentRepository,
  type TreatmentSheetRepository,
} from "@openpractice/core";
import type { MemoryState } from "./memory-state.js";

/** Treatment sheets in memory: one per note. */
export function memoryTreatmentSheets(s: () => MemoryState): TreatmentSheetRepository {
  const byNote = (orgId: number, contextId: string) =>
    [...s().sheets.values()].find((x) => x.organisationId === orgId && x.contextId === contextId);
  return {
    async insert(sheet) {
      if (byNote(sheet.organisationId, sheet.contextId)) return undefined;
      const stored = { ...structuredClone(sheet), id: s().nextId++ };
      s().sheets.set(stored.id, stored);
      return structuredClone(stored);
    },
    findById: async (orgId, id) => structuredClone([s().sheets.get(id)].find((x) => x?.organisationId === orgId)),
    findByContextId: async (orgId, contextId) => structuredClone(byNote(orgId, contextId)),
    async replaceTreatments(orgId, id, treatments, now) {
      const sheet = s().sheets.get(id);
      if (sheet?.organisationId === orgId)
        s().sheets.set(id, { ...sheet, treatments: structuredClone(treatments), updatedAt: now });
    },
  };
}

/** Claims of the default billing gateway in memory: one per note. */
export function memoryClaims(s: () => MemoryState): ClaimRepository {
  return {
    async insert(claim) {
      if (s().claims.some((c) => c.organisationId === claim.organisationId && c.contextId === claim.contextId))
        throw new Error("duplicate claim for the note");
      const id = s().nextId++;
      s().claims.push({ ...structuredClone(claim), id, reference: storedClaimReference(id) });
      return id;
    },
    findByContextId: async (orgId, contextId) =>
      structuredClone(s().claims.find((c) => c.organisationId === orgId && c.contextId === contextId)),
  };
}

/** Plans of care in memory: one per case (or per patient without a case). */
export function memoryPlansOfCare(s: () => MemoryState): PlanOfCareRepository {
  return {
    findById: async (orgId, id) => structuredClone([s().plans.get(id)].find((p) => p?.organisationId === orgId)),
    findFor: async (orgId, patientId, caseId) =>
      structuredClone(
        [...s().plans.values()].find(
          (p) => p.organisationId === orgId && p.patientId === patientId && p.serviceCaseId === caseId,
        ),
      ),
    async insert(plan) {
      // One plan per case (per patient without a case): a second first plan is refused, not stored.
      if (
        [...s().plans.values()].some(
          (p) =>
            p.organisationId === plan.organisationId &&
            p.patientId === plan.patientId &&
            p.serviceCaseId === plan.serviceCaseId,
        )
      )
        return undefined;
      const stored = { ...structuredClone(plan), id: s().nextId++ };
      s().plans.set(stored.id, stored);
      return structuredClone(stored);
    },
    async update(plan) {
      const old = s().plans.get(plan.id);
      if (old?.organisationId === plan.organisationId)
        s().plans.set(plan.id, {
          ...structuredClone(plan),
          patientId: old.patientId,
          serviceCaseId: old.serviceCaseId,
          createdAt: old.createdAt,
        });
    },
    listOfCasesEndingFrom: async (orgId, endingOnOrAfter, afterId, limit) =>
      structuredClone(
        [...s().plans.values()]
          .filter(
            (p) =>
              p.organisationId === orgId &&
              p.serviceCaseId !== null &&
              p.certificationEnd >= endingOnOrAfter &&
              p.id > afterId,
          )
          .sort((a, b) => a.id - b.id)
          .slice(0, limit),
      ),
  };
}

/** Rendered summaries in memory. */
export function memorySoapDocuments(s: () => MemoryState): SoapDocumentRepository {
  const key = (orgId: number, contextId: string, variant: string) => `${orgId}/${contextId}/${variant}`;
  return {
    put: async (d) =>
      void s().documents.set(key(d.organisationId, d.contextId, d.variant), {
        ...d,
        content: new Uint8Array(d.content),
      }),
    async get(orgId, contextId, variant) {
      const d = s().documents.get(key(orgId, contextId, variant));
      return d ? { ...d, content: new Uint8Array(d.content) } : undefined;
    },
  };
}
