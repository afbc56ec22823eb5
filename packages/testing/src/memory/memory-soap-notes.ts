import type { SoapNoteRepository } from "@openpractice/core";
import type { MemoryState } from "./memory-state.js";

/** SOAP notes and their forms in memory. */
export function memorySoapNotes(s: () => MemoryState): SoapNoteRepository {
  return {
    async insert(record) {
      const note = {
        ...structuredClone(record),
        summaryStatus: record.summaryStatus ?? null,
        summaryFailure: record.summaryFailure ?? null,
        id: s().nextId++,
      };
      s().notes.set(note.contextId, note);
      return structuredClone(note);
    },
    findByContextId: async (orgId, contextId) =>
      structuredClone([s().notes.get(contextId)].find((n) => n?.organisationId === orgId)),
    async list(c) {
      const rows = [...s().notes.values()]
        .filter(
          (n) =>
            n.organisationId === c.organisationId &&
            (c.patientId === undefined || n.patientId === c.patientId) &&
            (c.clinicId === undefined || n.clinicId === c.clinicId) &&
            (c.inClinics === undefined || c.inClinics.includes(n.clinicId)) &&
            (c.appointmentId === undefined || n.appointmentId === c.appointmentId) &&
            (c.serviceCaseId === undefined || n.serviceCaseId === c.serviceCaseId) &&
            (!c.from || n.serviceDateTime.getTime() >= c.from.getTime()) &&
            (!c.to || n.serviceDateTime.getTime() < c.to.getTime()) &&
            (!c.statuses?.length || c.statuses.includes(n.status)) &&
            (c.completed === undefined || n.completed === c.completed),
        )
        .sort((a, b) => b.serviceDateTime.getTime() - a.serviceDateTime.getTime() || b.id - a.id);
      return { notes: structuredClone(rows.slice(c.offset, c.offset + c.limit)), total: rows.length };
    },
    insertForms: async (forms) => void forms.forEach((f) => s().forms.set(f.id, structuredClone(f))),
    findForm: async (orgId, id) => structuredClone([s().forms.get(id)].find((f) => f?.organisationId === orgId)),
    formsOf: async (orgId, contextId) =>
      structuredClone([...s().forms.values()].filter((f) => f.organisationId === orgId && f.contextId === contextId)),
    async updateForm(f) {
      const current = s().forms.get(f.id);
      if (!current || current.organisationId !== f.organisationId || current.version !== f.version - 1) return false;
      s().forms.set(f.id, structuredClone(f));
      return true;
    },
    async completedNotesOf(orgId, patientIds, perPatient, inClinics) {
      const newestFirst = [...s().notes.values()]
        .filter((n) => n.organisationId === orgId && n.status === "COMPLETED" && patientIds.includes(n.patientId))
        .filter((n) => inClinics === undefined || inClinics.includes(n.clinicId))
        .sort(
          (a, b) =>
            a.patientId - b.patientId || b.serviceDateTime.getTime() - a.serviceDateTime.getTime() || b.id - a.id,
        );
      const kept = new Map<number, number>();
      return newestFirst
        .filter((n) => {
          kept.set(n.patientId, (kept.get(n.patientId) ?? 0) + 1);
          return kept.get(n.patientId)! <= perPatient;
        })
        .map((n) => ({
          contextId: n.contextId,
          patientId: n.patientId,
          clinicId: n.clinicId,
          serviceDateTime: new Date(n.serviceDateTime),
          renderingPhysician: n.renderingPhysician,
          assessment: structuredClone(
            [...s().forms.values()].find(
              (f) => f.organisationId === orgId && f.contextId === n.contextId && f.section === "Assessment",
            )?.response ?? {},
          ),
        }));
    },
    async lockNote(orgId, contextId) {
      // The store's mutex already runs one transaction at a time.
      const note = s().notes.get(contextId);
      return note?.organisationId === orgId ? structuredClone(note) : undefined;
    },
    async updateNote(orgId, contextId, changes) {
      const note = s().notes.get(contextId);
      if (note?.organisationId === orgId) s().notes.set(contextId, { ...note, ...structuredClone(changes) });
    },
    async addSignature(sig) {
      const stored = { ...structuredClone(sig), id: s().nextId++, revokedAt: null, revokedReason: null };
      s().signatures.push(stored);
      return structuredClone(stored);
    },
    signaturesOf: async (orgId, contextId, options = {}) =>
      structuredClone(
        s().signatures.filter(
          (x) =>
            x.organisationId === orgId && x.contextId === contextId && (options.includeRevoked || x.revokedAt === null),
        ),
      ),
    async revokeSignatures(orgId, contextId, roles, at, reason) {
      const hit = s().signatures.filter(
        (x) =>
          x.organisationId === orgId && x.contextId === contextId && roles.includes(x.role) && x.revokedAt === null,
      );
      hit.forEach((x) => Object.assign(x, { revokedAt: at, revokedReason: reason }));
      return hit.length;
    },
    appendHistory: async (entry) => void s().noteHistory.push(structuredClone(entry)),
    historyOf: async (orgId, contextId) =>
      structuredClone(s().noteHistory.filter((e) => e.organisationId === orgId && e.contextId === contextId)),
  };
}
