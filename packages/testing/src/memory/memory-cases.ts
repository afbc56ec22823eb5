import { foldForMatch, type Authorization, type Repositories } from "@openpractice/core";
import { type MemoryState, moduleState } from "./memory-state.js";

type CaseRepositories = Pick<Repositories, "cases" | "referringPhysicians" | "insuranceCards" | "authorizations">;

/** Cases, the physician registry, insurance cards and authorizations in memory. Transactions run one at a time, so the case lock only checks existence. */
export function memoryCases(s: () => MemoryState): CaseRepositories {
  // Deleted cards stay (cases copied them); reads leave them out.
  const deletedCards = () => moduleState(s(), "deletedCards", () => new Set<number>());
  const physicianText = (p: { firstName: string; lastName: string; npi: string | null }) =>
    foldForMatch([p.firstName, p.lastName, p.npi ?? ""].join(" "));
  const npiHolder = (orgId: number, npi: string | null, exceptId?: number) =>
    npi === null
      ? undefined
      : [...s().physicians.values()].find((p) => p.organisationId === orgId && p.npi === npi && p.id !== exceptId)?.id;
  const byStart = (a: Authorization, b: Authorization) =>
    a.effectiveStartDate < b.effectiveStartDate ? -1 : a.effectiveStartDate > b.effectiveStartDate ? 1 : a.id - b.id;
  return {
    cases: {
      async insert(record) {
        const stored = { ...structuredClone(record), id: s().nextId++ };
        s().cases.set(stored.id, stored);
        return structuredClone(stored);
      },
      findById: async (orgId, id) => structuredClone([s().cases.get(id)].find((c) => c?.organisationId === orgId)),
      async update(c) {
        const current = s().cases.get(c.id);
        if (current && current.organisationId === c.organisationId)
          s().cases.set(c.id, { ...structuredClone(c), patientId: current.patientId, createdAt: current.createdAt });
      },
      lockForVisits: async (orgId, id) => s().cases.get(id)?.organisationId === orgId,
      listByPatient: async (orgId, patientId) =>
        structuredClone(
          [...s().cases.values()]
            .filter((c) => c.organisationId === orgId && c.patientId === patientId)
            .sort((a, b) => b.id - a.id),
        ),
    },
    referringPhysicians: {
      async insert(record) {
        const existingId = npiHolder(record.organisationId, record.npi);
        if (existingId !== undefined) return { created: false, existingId };
        const physician = { ...structuredClone(record), id: s().nextId++ };
        s().physicians.set(physician.id, physician);
        return { created: true, physician: structuredClone(physician) };
      },
      findById: async (orgId, id) => structuredClone([s().physicians.get(id)].find((p) => p?.organisationId === orgId)),
      async update(p) {
        const existingId = npiHolder(p.organisationId, p.npi, p.id);
        if (existingId !== undefined) return { updated: false, existingId };
        if (s().physicians.get(p.id)?.organisationId === p.organisationId) s().physicians.set(p.id, structuredClone(p));
        return { updated: true };
      },
      async search(orgId, terms, limit, offset) {
        const rows = [...s().physicians.values()]
          .filter((p) => p.organisationId === orgId && terms.every((t) => physicianText(p).includes(t)))
          .sort((a, b) => (a.lastName < b.lastName ? -1 : a.lastName > b.lastName ? 1 : a.id - b.id));
        return { physicians: structuredClone(rows.slice(offset, offset + limit)), total: rows.length };
      },
    },
    insuranceCards: {
      async insert(record) {
        const card = { ...structuredClone(record), id: s().nextId++ };
        s().cards.set(card.id, card);
        return structuredClone(card);
      },
      listByPatient: async (orgId, patientId) =>
        structuredClone(
          [...s().cards.values()]
            .filter((c) => c.organisationId === orgId && c.patientId === patientId && !deletedCards().has(c.id))
            .sort((a, b) => a.id - b.id),
        ),
      findById: async (orgId, id) =>
        structuredClone([s().cards.get(id)].find((c) => c?.organisationId === orgId && !deletedCards().has(id))),
      async update(card) {
        const stored = s().cards.get(card.id);
        if (stored?.organisationId === card.organisationId)
          s().cards.set(card.id, {
            ...structuredClone(card),
            patientId: stored.patientId,
            createdAt: stored.createdAt,
          });
      },
      async delete(orgId, id) {
        if (s().cards.get(id)?.organisationId !== orgId || deletedCards().has(id)) return false;
        deletedCards().add(id);
        return true;
      },
    },
    authorizations: {
      async insert(record) {
        const a = { ...structuredClone(record), id: s().nextId++ };
        s().authorizations.set(a.id, a);
        return structuredClone(a);
      },
      findById: async (orgId, id) =>
        structuredClone([s().authorizations.get(id)].find((a) => a?.organisationId === orgId)),
      async update(a) {
        if (s().authorizations.get(a.id)?.organisationId === a.organisationId)
          s().authorizations.set(a.id, structuredClone(a));
      },
      delete: async (orgId, id) =>
        s().authorizations.get(id)?.organisationId === orgId && s().authorizations.delete(id),
      listByCase: async (orgId, caseId) =>
        structuredClone(
          [...s().authorizations.values()]
            .filter((a) => a.organisationId === orgId && a.caseId === caseId)
            .sort(byStart),
        ),
      async search(c) {
        const rows = [...s().authorizations.values()]
          .filter((a) => a.organisationId === c.organisationId && (c.caseId === undefined || a.caseId === c.caseId))
          .filter(
            (a) => !c.referenceNumber || a.referenceNumber.toLowerCase().includes(c.referenceNumber.toLowerCase()),
          )
          .filter((a) => {
            const patient = s().patients.get(a.patientId);
            return c.patientTerms.every((t) => patient?.searchText.includes(t));
          })
          .sort((a, b) => b.id - a.id);
        return { authorizations: structuredClone(rows.slice(c.offset, c.offset + c.limit)), total: rows.length };
      },
    },
  };
}
