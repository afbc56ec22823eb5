import {
  documentListDate,
  type DocumentSettings,
  type PatientDocument,
  type Repositories,
  visitSummaryDocument,
} from "@openpractice/core";
import { type MemoryState, moduleState } from "./memory-state.js";

/** Patient documents' records and settings in memory, in the domain's own slice of the state. */
export function memoryDocuments(s: () => MemoryState): Pick<Repositories, "patientDocuments"> {
  const state = () =>
    moduleState(s(), "documents", () => ({
      rows: new Map<number, PatientDocument>(),
      settings: new Map<number, DocumentSettings>(),
    }));
  const rows = () => state().rows;
  const own = (organisationId: number, id: number) => {
    const row = rows().get(id);
    return row?.organisationId === organisationId ? row : undefined;
  };
  return {
    patientDocuments: {
      async insert(record) {
        const document = { ...structuredClone(record), id: s().nextId++ };
        rows().set(document.id, document);
        return structuredClone(document);
      },
      findById: async (organisationId, id) => structuredClone(own(organisationId, id)),
      async update(record) {
        if (own(record.organisationId, record.id)) rows().set(record.id, structuredClone(record));
      },
      async updateIfStatus(record, expectedStatus) {
        if (own(record.organisationId, record.id)?.status !== expectedStatus) return false;
        rows().set(record.id, structuredClone(record));
        return true;
      },
      async list(organisationId, patientId, f) {
        const matches = [...rows().values()]
          .filter(
            (d) =>
              d.organisationId === organisationId &&
              d.patientId === patientId &&
              (f.status ? d.status === f.status : d.status !== "deleted") &&
              (f.category === undefined || d.category === f.category) &&
              (f.caseId === undefined || d.caseId === f.caseId) &&
              (f.from === undefined || documentListDate(d) >= f.from) &&
              (f.to === undefined || documentListDate(d) <= f.to) &&
              (f.clinicIds === undefined || d.clinicId === null || f.clinicIds.includes(d.clinicId)),
          )
          .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id);
        return { documents: structuredClone(matches.slice(f.offset, f.offset + f.limit)), total: matches.length };
      },
      async remove(organisationId, id) {
        if (own(organisationId, id)) rows().delete(id);
      },
      duePurge: async (now, limit) =>
        structuredClone(
          [...rows().values()]
            .filter((d) => d.status === "deleted" && d.purgeAfter !== null && d.purgeAfter <= now)
            .sort((a, b) => (a.purgeAfter?.getTime() ?? 0) - (b.purgeAfter?.getTime() ?? 0))
            .slice(0, limit),
        ),
      async storageKeysInUse(keys) {
        const used = new Set([...rows().values()].map((d) => d.storageKey));
        return new Set(keys.filter((k) => used.has(k)));
      },
      async recordVisitSummary(record) {
        const existing = [...rows().values()].find(
          (d) => d.organisationId === record.organisationId && d.soapContextId === record.soapContextId,
        );
        if (existing) {
          Object.assign(existing, {
            sizeBytes: record.sizeBytes,
            sha256: record.sha256,
            mediaType: record.mediaType,
            updatedAt: record.createdAt,
          });
          return { created: false, document: structuredClone(existing) };
        }
        const document: PatientDocument = { ...visitSummaryDocument(structuredClone(record)), id: s().nextId++ };
        rows().set(document.id, document);
        return { created: true, document: structuredClone(document) };
      },
      settingsOf: async (organisationId) => structuredClone(state().settings.get(organisationId)),
      async saveSettings(organisationId, settings) {
        state().settings.set(organisationId, structuredClone(settings));
      },
    },
  };
}
