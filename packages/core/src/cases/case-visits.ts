import type { OrganisationRepository } from "../organisations/organisation-repository.js";

/**
 * One visit of a case as visit counting sees it: an appointment, or a
 * completed note written without one. `completed`: checked out, or documented
 * by a completed note (not an addendum); `booked`: still ahead; `none`:
 * cancelled or missed.
 */
export interface CaseVisit {
  appointmentId: number | null;
  clinicId: number;
  startsAt: Date;
  state: "completed" | "booked" | "none";
}

/** What visit counting reads from the store: each case's visits and the clinics' time zones. */
export interface CaseVisitReader {
  /** The case's visits (read once per case, however often asked). */
  visitsOf(caseId: number): Promise<CaseVisit[]>;
  /** The case's completed notes (read with its visits). */
  notesOf(caseId: number): Promise<VisitNote[]>;
  /** The clinic's IANA time zone (UTC for an unknown clinic). */
  zoneOf(clinicId: number): string;
}

/** An appointment as visit counting reads it (appointments sit above cases: this is the shape, not their record). */
export interface VisitAppointment {
  id: number;
  clinicId: number;
  startsAt: Date;
  status: string;
}

/** A SOAP note as visit counting reads it. */
export interface VisitNote {
  appointmentId: number | null;
  clinicId: number;
  serviceDateTime: Date;
  completed: boolean;
  type: string;
}

/**
 * What visit counting reads: the organisation's clinics, and a case's appointments and completed notes. The
 * appointment and note repositories satisfy it; cases declare only the calls they make.
 */
export interface CaseVisitRepositories {
  organisations: Pick<OrganisationRepository, "listClinics">;
  appointments: {
    list(criteria: { organisationId: number; serviceCaseId: number; limit: number; offset: number }): Promise<{
      appointments: VisitAppointment[];
    }>;
  };
  soapNotes: {
    list(criteria: {
      organisationId: number;
      serviceCaseId: number;
      completed: true;
      limit: number;
      offset: number;
    }): Promise<{ notes: VisitNote[] }>;
  };
}

const BOOKED = new Set(["SCHEDULED", "CHECKED_IN", "IN_PROGRESS"]);

/** The case's appointments and completed notes as visits: a completed note counts its appointment (or itself) as done. */
export function caseVisits(
  appointments: readonly VisitAppointment[],
  completedNotes: readonly VisitNote[],
): CaseVisit[] {
  const visitNotes = completedNotes.filter((n) => n.completed && n.type !== "ADDENDUM");
  const documented = new Set(visitNotes.map((n) => n.appointmentId).filter((id): id is number => id !== null));
  const visits: CaseVisit[] = appointments.map((a) => ({
    appointmentId: a.id,
    clinicId: a.clinicId,
    startsAt: a.startsAt,
    state:
      a.status === "CHECKED_OUT" || (documented.has(a.id) && a.status !== "CANCELLED")
        ? "completed"
        : BOOKED.has(a.status)
          ? "booked"
          : "none",
  }));
  const known = new Set(appointments.map((a) => a.id));
  for (const n of visitNotes) {
    if (n.appointmentId === null || !known.has(n.appointmentId))
      visits.push({ appointmentId: null, clinicId: n.clinicId, startsAt: n.serviceDateTime, state: "completed" });
  }
  return visits;
}

/** Reads the organisation's clinics once and each case's visits at most once. */
export async function caseVisitReader(r: CaseVisitRepositories, organisationId: number): Promise<CaseVisitReader> {
  const clinics = await r.organisations.listClinics(organisationId);
  const cache = new Map<number, Promise<{ visits: CaseVisit[]; notes: VisitNote[] }>>();
  const read = (caseId: number) => {
    let found = cache.get(caseId);
    if (!found) {
      found = Promise.all([
        r.appointments.list({ organisationId, serviceCaseId: caseId, limit: 10_000, offset: 0 }),
        r.soapNotes.list({ organisationId, serviceCaseId: caseId, completed: true, limit: 10_000, offset: 0 }),
      ]).then(([a, n]) => ({ visits: caseVisits(a.appointments, n.notes), notes: n.notes }));
      cache.set(caseId, found);
    }
    return found;
  };
  return {
    visitsOf: async (caseId) => (await read(caseId)).visits,
    notesOf: async (caseId) => (await read(caseId)).notes,
    zoneOf: (clinicId) => clinics.find((c) => c.id === clinicId)?.timeZone ?? "UTC",
  };
}
