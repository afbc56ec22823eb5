import type { StorageProbe } from "../conformance/storage-probe.js";
import type { MemoryState } from "./memory-state.js";

/** The conformance suites' probe for the memory storage, answered from its state. */
export function memoryProbe(state: () => MemoryState): StorageProbe {
  const inOrganisation = (organisationId?: number) => (row: { organisationId: number }) =>
    organisationId === undefined || row.organisationId === organisationId;
  return {
    async hasOrganisation(id) {
      return state().organisations.has(id);
    },
    async patients(organisationId) {
      return [...state().patients.values()].filter(inOrganisation(organisationId)).map((p) => ({
        id: p.id,
        organisationId: p.organisationId,
        firstName: p.firstName,
        identityKey: p.identityKey,
        storedCreatedAt: p.createdAt.toISOString(),
      }));
    },
    async outboxEvents(organisationId) {
      return state()
        .outbox.filter(inOrganisation(organisationId))
        .map((e) => ({
          eventType: e.eventType,
          organisationId: e.organisationId,
          data: structuredClone(e.data),
          dispatched: e.dispatchedAt !== null,
        }));
    },
    async appointments() {
      return [...state().appointments.values()].map((a) => ({
        id: a.id,
        status: a.status,
        storedStartsAt: a.startsAt.toISOString(),
      }));
    },
    async appointmentHistory(appointmentId) {
      return state()
        .appointmentHistory.filter((e) => e.appointmentId === appointmentId)
        .map((e) => ({ action: e.action }));
    },
    async rateLimitCounters() {
      // Keys are "<counter key>|<window start>".
      return [...state().counters.entries()].map(([k, hits]) => ({ key: k.slice(0, k.lastIndexOf("|")), hits }));
    },
    async jobs() {
      return [...state().jobs.values()].map((j) => ({
        id: j.id,
        status: j.status,
        attempts: j.attempts,
        completedBy: j.completedBy,
        leaseToken: j.leaseToken,
        lastError: j.lastError,
      }));
    },
    async locks() {
      return [...state().locks.entries()].map(([name, l]) => ({ name, holder: l.holder }));
    },
    async devices(organisationId) {
      return [...state().devices.values()]
        .filter(inOrganisation(organisationId))
        .map((d) => ({ id: d.id, userId: d.userId }));
    },
    async notifications(organisationId) {
      return [...state().notifications.values()]
        .filter(inOrganisation(organisationId))
        .map((n) => ({ id: n.id, idempotencyKey: n.idempotencyKey }));
    },
  };
}
