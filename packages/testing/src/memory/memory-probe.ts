import type { StorageProbe } from "../conformance/storage-conformance.js";
import type { MemoryState } from "./memory-state.js";

/**
 * The conformance suite's probe for the memory storage: what a SQL adapter's
 * probe reads from tables, read from the state under the same names.
 */
export function memoryProbe(state: () => MemoryState): StorageProbe {
  const tables: Record<string, () => Record<string, unknown>[]> = {
    organisations: () => [...state().organisations.values()].map((o) => ({ id: o.id, name: o.name, plan: o.plan })),
    patients: () =>
      [...state().patients.values()].map((p) => ({
        id: p.id,
        organisation_id: p.organisationId,
        first_name: p.firstName,
        identity_key: p.identityKey,
        created_at: p.createdAt.toISOString(),
      })),
    outbox: () =>
      state().outbox.map((e) => ({
        id: e.id,
        organisation_id: e.organisationId,
        event_type: e.eventType,
        data: JSON.stringify(e.data),
        dispatched_at: e.dispatchedAt,
      })),
    appointments: () =>
      [...state().appointments.values()].map((a) => ({
        id: a.id,
        organisation_id: a.organisationId,
        status: a.status,
        starts_at: a.startsAt.toISOString(),
      })),
    appointment_history: () =>
      state().appointmentHistory.map((e) => ({ appointment_id: e.appointmentId, action: e.action })),
    rate_limit_counters: () =>
      [...state().counters.entries()].map(([k, hits]) => ({ counter_key: k.slice(0, k.lastIndexOf("|")), hits })),
    jobs: () =>
      [...state().jobs.values()].map((j) => ({
        id: j.id,
        status: j.status,
        attempts: j.attempts,
        completed_by: j.completedBy,
        lease_token: j.leaseToken,
        last_error: j.lastError,
      })),
    notification_devices: () =>
      [...state().devices.values()].map((d) => ({ id: d.id, organisation_id: d.organisationId, user_id: d.userId })),
    notifications: () =>
      [...state().notifications.values()].map((n) => ({
        id: n.id,
        organisation_id: n.organisationId,
        idempotency_key: n.idempotencyKey,
      })),
    locks: () => [...state().locks.entries()].map(([name, l]) => ({ name, holder: l.holder })),
  };
  return {
    async rows(table, where = {}) {
      const read = tables[table];
      if (!read) throw new Error(`memory probe has no table ${table}`);
      return read().filter((row) => Object.entries(where).every(([k, v]) => row[k] === v));
    },
  };
}
