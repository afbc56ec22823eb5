import type { Appointment, AppointmentRepository } from "@openpractice/core";
import type { MemoryState } from "./memory-state.js";

/**
 * Appointments in memory. Transactions already run one at a time, so locking a
 * doctor's schedule only has to say whether the doctor exists.
 */
export function memoryAppointments(s: () => MemoryState): AppointmentRepository {
  const own = (orgId: number, id: number) => {
    const a = s().appointments.get(id);
    return a && a.organisationId === orgId ? a : undefined;
  };
  return {
    lockDoctorSchedule: async (orgId, doctorId) =>
      s().providers.some((p) => p.organisationId === orgId && p.userId === doctorId),
    async findOverlapping(q) {
      const clash = [...s().appointments.values()]
        .filter(
          (a) =>
            a.organisationId === q.organisationId &&
            a.doctorId === q.doctorId &&
            a.id !== q.exceptId &&
            q.statuses.includes(a.status),
        )
        .filter((a) => a.startsAt.getTime() < q.endsAt.getTime() && a.endsAt.getTime() > q.startsAt.getTime())
        .sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime() || a.id - b.id)[0];
      return structuredClone(clash);
    },
    async insert(record) {
      // What the SQL adapters' foreign key does: the doctor is a provider of the same organisation.
      if (!s().providers.some((p) => p.organisationId === record.organisationId && p.userId === record.doctorId)) {
        throw new Error(`appointments: no provider ${record.doctorId} in organisation ${record.organisationId}`);
      }
      const stored: Appointment = {
        ...structuredClone(record),
        categoryIds: [...record.categoryIds].sort((a, b) => a - b),
        id: s().nextId++,
      };
      s().appointments.set(stored.id, stored);
      return structuredClone(stored);
    },
    findById: async (orgId, id) => structuredClone(own(orgId, id)),
    async update(a) {
      const current = own(a.organisationId, a.id);
      if (!current || current.version !== a.version) return false;
      s().appointments.set(a.id, {
        ...structuredClone(current),
        ...structuredClone({
          startsAt: a.startsAt,
          endsAt: a.endsAt,
          status: a.status,
          cancellation: a.cancellation,
          updatedAt: a.updatedAt,
        }),
        version: a.version + 1,
      });
      return true;
    },
    async list(c) {
      const rows = [...s().appointments.values()]
        .filter(
          (a) =>
            a.organisationId === c.organisationId &&
            (c.startsFrom === undefined || a.startsAt.getTime() >= c.startsFrom.getTime()) &&
            (c.startsBefore === undefined || a.startsAt.getTime() < c.startsBefore.getTime()) &&
            (c.doctorId === undefined || a.doctorId === c.doctorId) &&
            (c.clinicId === undefined || a.clinicId === c.clinicId) &&
            (c.inClinics === undefined || c.inClinics.includes(a.clinicId)) &&
            (c.patientId === undefined || a.patientId === c.patientId) &&
            (c.serviceCaseId === undefined || a.serviceCaseId === c.serviceCaseId) &&
            (!c.statuses?.length || c.statuses.includes(a.status)) &&
            (c.categoryId === undefined || a.categoryIds.includes(c.categoryId)),
        )
        .sort((a, b) => {
          const key = { start: "startsAt", created_at: "createdAt", updated_at: "updatedAt" } as const;
          const field = key[c.sort ?? "start"];
          const ascending = a[field].getTime() - b[field].getTime() || a.id - b.id;
          return c.descending ? -ascending : ascending;
        });
      return { appointments: structuredClone(rows.slice(c.offset, c.offset + c.limit)), total: rows.length };
    },
    listHeldTimes: async (q) =>
      [...s().appointments.values()]
        .filter(
          (a) =>
            a.organisationId === q.organisationId &&
            q.doctorIds.includes(a.doctorId) &&
            q.statuses.includes(a.status) &&
            a.startsAt >= q.startsFrom &&
            a.startsAt < q.startsBefore,
        )
        .map((a) => ({ doctorId: a.doctorId, clinicId: a.clinicId, startsAt: a.startsAt, endsAt: a.endsAt })),
    appendHistory: async (entry) => void s().appointmentHistory.push(structuredClone(entry)),
    history: async (orgId, id) =>
      structuredClone(s().appointmentHistory.filter((e) => e.organisationId === orgId && e.appointmentId === id)),
  };
}
