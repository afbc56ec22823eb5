import type { BulkExport, ExportPage, PatientDocument, Repositories } from "@openpractice/core";
import { type MemoryState, moduleState, toPatient } from "./memory-state.js";

/** The keyset window of a page over rows of the organisation: ids above afterId, changed after since. */
function pageOf<T extends { id: number; organisationId: number; updatedAt: Date }>(
  rows: Iterable<T>,
  p: ExportPage,
  also: (row: T) => boolean = () => true,
): T[] {
  return [...rows]
    .filter((r) => r.organisationId === p.organisationId && r.id > p.afterId && also(r))
    .filter((r) => p.since === null || r.updatedAt > p.since)
    .sort((a, b) => a.id - b.id)
    .slice(0, p.limit)
    .map((r) => structuredClone(r));
}

/** Bulk Data exports and their keyset reads in memory, as the SQL adapters answer them. */
export function memoryBulkExport(s: () => MemoryState): Pick<Repositories, "bulkExports" | "bulkExportSource"> {
  const exports = () => moduleState(s(), "bulkExports", () => new Map<string, BulkExport>());
  const key = (organisationId: number, id: string) => `${organisationId}:${id}`;
  const deletedCards = () => moduleState(s(), "deletedCards", () => new Set<number>());
  const documents = () =>
    moduleState(s(), "documents", () => ({ rows: new Map<number, PatientDocument>(), settings: new Map() }));
  return {
    bulkExports: {
      async insert(e) {
        exports().set(key(e.organisationId, e.id), structuredClone(e));
      },
      async findById(organisationId, id) {
        const e = exports().get(key(organisationId, id));
        return e ? structuredClone(e) : undefined;
      },
      async countActive(organisationId) {
        return [...exports().values()].filter(
          (e) => e.organisationId === organisationId && (e.status === "queued" || e.status === "running"),
        ).length;
      },
      async update(e, expected) {
        const current = exports().get(key(e.organisationId, e.id));
        if (
          !current ||
          current.status !== expected.status ||
          current.cursor.typeIndex !== expected.cursor.typeIndex ||
          current.cursor.afterId !== expected.cursor.afterId
        )
          return false;
        // The files are added by addFile, as the SQL adapters keep them in their own table.
        exports().set(key(e.organisationId, e.id), structuredClone({ ...e, files: current.files }));
        return true;
      },
      async cancel(organisationId, id, from, now) {
        const current = exports().get(key(organisationId, id));
        if (!current || !from.includes(current.status)) return false;
        Object.assign(current, { status: "cancelled", expiresAt: now, updatedAt: now });
        return true;
      },
      async stalled(before, limit) {
        return [...exports().values()]
          .filter((e) => (e.status === "queued" || e.status === "running") && e.updatedAt < before)
          .sort((a, b) => a.updatedAt.getTime() - b.updatedAt.getTime())
          .slice(0, limit)
          .map((e) => structuredClone({ ...e, files: [] }));
      },
      async lockOrganisation() {
        // Transactions of the memory store run one at a time.
      },
      async addFile(organisationId, exportId, file) {
        const current = exports().get(key(organisationId, exportId));
        // The SQL adapters' primary key (organisation, export, position) refuses a second file at a position.
        if (current?.files.some((f) => f.position === file.position))
          throw new Error(`export ${exportId} already has a file at position ${file.position}`);
        if (current) current.files = [...current.files, structuredClone(file)].sort((a, b) => a.position - b.position);
      },
      async expired(now, limit) {
        return [...exports().values()]
          .filter((e) => e.expiresAt !== null && e.expiresAt <= now)
          .sort((a, b) => (a.expiresAt?.getTime() ?? 0) - (b.expiresAt?.getTime() ?? 0))
          .slice(0, limit)
          .map((e) => structuredClone(e));
      },
      async remove(organisationId, id) {
        exports().delete(key(organisationId, id));
      },
      async storageKeysInUse(keys) {
        const named = new Set([...exports().values()].flatMap((e) => e.files.map((f) => f.storageKey)));
        return new Set(keys.filter((k) => named.has(k)));
      },
    },
    bulkExportSource: {
      async patients(p) {
        return pageOf(s().patients.values(), p).map(toPatient);
      },
      async insuranceCards(p) {
        return pageOf(s().cards.values(), p, (c) => !deletedCards().has(c.id));
      },
      async appointments(p) {
        return pageOf(
          s().appointments.values(),
          p,
          (a) => (!p.inClinics || p.inClinics.includes(a.clinicId)) && (!p.statuses || p.statuses.includes(a.status)),
        );
      },
      async completedNotes(p) {
        return [...s().notes.values()]
          .filter((n) => n.organisationId === p.organisationId && n.id > p.afterId && n.completed)
          .filter((n) => n.type !== "ADDENDUM" && (!p.inClinics || p.inClinics.includes(n.clinicId)))
          .filter((n) => p.since === null || (n.completedAt !== null && n.completedAt > p.since))
          .sort((a, b) => a.id - b.id)
          .slice(0, p.limit)
          .map((n) => structuredClone(n));
      },
      async patientDocuments(p) {
        return pageOf(
          documents().rows.values(),
          p,
          (d) => d.status !== "deleted" && (!p.inClinics || d.clinicId === null || p.inClinics.includes(d.clinicId)),
        );
      },
    },
  };
}
