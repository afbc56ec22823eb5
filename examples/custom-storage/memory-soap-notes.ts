import type { SoapNoteRepository } from "@openpractice/core";
import type { MemoryState } from "./memory-state.js";

/** SOAP notes and their forms in memory. */
export function memorySoapNotes(s: () => MemoryState): SoapNoteRepository {
  return {
    async insert(record) {
      const note = { ...structuredClone(record), id: s().nextId++ };
      s().notes.set(note.contextId, note);
      return structuredClone(note);
    },
    findByContextId: async (orgId, contextId) => structuredClone([s().notes.get(contextId)].find((n) => n?.organisationId === orgId)),
    async list(c) {
      const rows = [...s().notes.values()]
        .filter(
          (n) =>
            n.organisationId === c.organisationId &&
            (c.patientId === undefined || n.patientId === c.patientId) &&
            (c.clinicId === undefined || n.clinicId === c.clinicId) &&
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
    formsOf: async (orgId, contextId) => structuredClone([...s().forms.values()].filter((f) => f.organisationId === orgId && f.contextId === contextId)),
    async updateForm(f) {
      const current = s().forms.get(f.id);
      if (!current || current.organisationId !== f.organisationId || current.version !== f.version - 1) return false;
      s().forms.set(f.id, structuredClone(f));
      return true;
    },
  };
}
