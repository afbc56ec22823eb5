import type { Appointment } from "../appointments/appointment.js";
import type { Repositories } from "../ports/storage.js";

/** What visit counting reads from the store: each case's appointments and the clinics' time zones. */
export interface CaseVisitReader {
  /** The case's appointments (read once per case, however often asked). */
  visitsOf(caseId: number): Promise<Appointment[]>;
  /** The clinic's IANA time zone (UTC for an unknown clinic). */
  zoneOf(clinicId: number): string;
}

/** Reads the organisation's clinics once and each case's appointments at most once. */
export async function caseVisitReader(r: Repositories, organisationId: number): Promise<CaseVisitReader> {
  const clinics = await r.organisations.listClinics(organisationId);
  const cache = new Map<number, Promise<Appointment[]>>();
  return {
    visitsOf(caseId) {
      let visits = cache.get(caseId);
      if (!visits) {
        visits = r.appointments.list({ organisationId, serviceCaseId: caseId, limit: 10_000, offset: 0 }).then((p) => p.appointments);
        cache.set(caseId, visits);
      }
      return visits;
    },
    zoneOf: (clinicId) => clinics.find((c) => c.id === clinicId)?.timeZone ?? "UTC",
  };
}
